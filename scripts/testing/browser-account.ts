// An account for a browser test made through the real API, as a person would: register, then
// follow the link the verification mail carries (read from the outgoing queue). The browser
// context's cookies then hold the session.
import type { APIRequestContext } from 'playwright-core'
import type { Sql } from '../../db/client.ts'
import { latestLink, tokenOf } from './mailbox.ts'
import { TEST_SECRET_KEY } from './test-app.ts'

export async function registerVerified(request: APIRequestContext, baseUrl: string, sql: Sql, email: string, password = 'correct horse battery'): Promise<{ id: string }> {
  const registered = await request.post(`${baseUrl}/api/auth/register`, { data: { email, password } })
  if (registered.status() !== 202) throw new Error(`register failed: ${registered.status()}`)
  const token = tokenOf(await latestLink({ sql, secretKey: TEST_SECRET_KEY }, email, '/verify-email'))
  const verified = await request.post(`${baseUrl}/api/auth/verify-email`, { data: { token } })
  if (verified.status() !== 200) throw new Error(`verify failed: ${verified.status()}`)
  return ((await verified.json()) as { user: { id: string } }).user
}

/** Follows the confirmation link mailed to a new forward target. */
export async function confirmForwardTarget(request: APIRequestContext, baseUrl: string, sql: Sql, target: string): Promise<void> {
  const token = tokenOf(await latestLink({ sql, secretKey: TEST_SECRET_KEY }, target, '/confirm-target'))
  const confirmed = await request.post(`${baseUrl}/api/auth/confirm-target`, { data: { token } })
  if (confirmed.status() !== 200) throw new Error(`confirm failed: ${confirmed.status()}`)
}
