// An account for a browser test made through the real API, as a person would: register, then
// follow the link the verification mail carries (read from the outgoing queue). The browser
// context's cookies then hold the session.
import type { APIRequestContext, Page } from 'playwright-core'
import type { Sql } from '../../db/client.ts'
import { latestLink, tokenOf, type Mailbox } from './mailbox.ts'
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

/** Registers through the form, as a person would, then opens the mailed link, which signs in to the dashboard. */
export async function registerThroughForm(page: Page, baseUrl: string, mailbox: Mailbox, email: string, password = 'correct horse'): Promise<void> {
  await page.goto(baseUrl + '/register')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm Password').fill(password)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await page.waitForURL('**/check-email')
  await page.goto(await latestLink(mailbox, email, '/verify-email'))
  await page.waitForURL('**/dashboard')
}
