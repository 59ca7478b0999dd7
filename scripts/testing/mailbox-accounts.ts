// A connected mailbox as a test makes one: through the API the browser uses, with the
// base64 JSON credentials the API takes, then waiting on its sync job's status as the UI polls it.
import { expect } from 'vitest'
import type { ApiClient } from './api-client.ts'
import type { Account, MicrosoftStandIn } from './microsoft-stand-in.ts'

export const imapCredentials = (c: { email: string; password: string; host: string; port: number; secure?: boolean }) =>
  Buffer.from(JSON.stringify({ secure: true, ...c })).toString('base64')

/** Connects `email` on the IMAP server; answers the account id and its first sync job. */
export async function addImapAccount(user: ApiClient, server: { host: string; port: number }, email: string, password: string) {
  const res = await user.json(user.post('/api/email-providers', {
    provider: 'other', email, encryptedCredentials: imapCredentials({ email, password, host: server.host, port: server.port }),
  }))
  expect(res.status).toBe(202)
  return { providerId: res.body.provider.id as string, jobId: res.body.jobId as string }
}

/** The sync job's status once it is done or failed. */
export async function syncJobFinished(user: ApiClient, providerId: string, jobId: string, timeoutMs = 60_000) {
  let body: any
  await expect.poll(async () => {
    body = (await user.json(user.get(`/api/email-providers/${providerId}/sync-jobs/${jobId}`))).body
    return body.status
  }, { timeout: timeoutMs, interval: 100 }).toMatch(/^(done|failed)$/)
  return body
}

/** Presses Sync and waits for the job. */
export async function syncNow(user: ApiClient, providerId: string) {
  const res = await user.json(user.post(`/api/email-providers/${providerId}/sync`))
  expect(res.status).toBe(202)
  return syncJobFinished(user, providerId, res.body.jobId)
}

/**
 * The browser's side of connecting Outlook: /api/auth/microsoft, consent at the stand-in, back to
 * the callback (`tamper` changes what comes back). Answers where the callback sent the browser.
 */
export async function connectOutlook(user: ApiClient, microsoft: MicrosoftStandIn, account: Account, tamper?: (back: URLSearchParams) => void) {
  const start = await user.get('/api/auth/microsoft')
  expect(start.status).toBe(302)
  const grant = microsoft.authorize(start.headers.get('location')!, account)
  const back = new URLSearchParams({ code: grant.code, state: grant.state })
  tamper?.(back)
  const callback = new URL(grant.redirectUri)
  const res = await user.get(`${callback.pathname}?${back}`)
  expect(res.status).toBe(302)
  return new URL(res.headers.get('location')!, 'http://localhost:3000')
}
