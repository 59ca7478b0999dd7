// A connected mailbox as a test makes one: through the API the browser uses, with the
// base64 JSON credentials the API takes, then waiting on its sync job's status as the UI polls it.
import { expect } from 'vitest'
import type { ApiClient } from './api-client.ts'

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
