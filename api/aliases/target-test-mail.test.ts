// "Send a test mail" with no delivery process running (issue 30): the test app runs the web
// process's routes and the queue, and nothing takes send-email jobs. The status says sending at
// first, then, once the job has waited QUEUED_AFTER_MS untaken, that it is still queued and the
// delivery process may not be running (the browser stops polling on it); the job stays queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { QUEUED_AFTER_MS } from './target-test-mail.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

describe('GET /api/forward-targets/test/{testMailId} without a delivery process', () => {
  it('says sending, then still queued once no delivery process took it', async () => {
    const api = new ApiClient(t.app)
    const { user } = await api.register()
    const target = `q-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    expect((await api.post(`/api/aliases/${user.id}`, { alias: `q${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target })).status).toBe(201)
    await api.confirmForwardTarget(target)

    const queued = await api.json(api.post('/api/forward-targets/test', { email: target }))
    expect(queued.status).toBe(202)
    const status = async () => (await api.json(api.get(queued.body.statusUrl))).body
    expect(await status()).toEqual({ status: 'sending', code: null, message: `The test mail to ${target} is on its way.` })
    await expect.poll(async () => (await status()).status, { timeout: QUEUED_AFTER_MS + 20_000, interval: 1_000 }).toBe('queued')
    expect(await status()).toEqual({
      status: 'queued', code: null,
      message: `The test mail to ${target} is still queued: the delivery process may not be running. It is sent once a delivery process takes it.`,
    })
    // nothing took or changed it: it waits in the queue for a delivery process
    expect((await t.db.sql`select status from email_jobs where id = ${queued.body.jobId}`)[0].status).toBe('pending')
  }, QUEUED_AFTER_MS + 60_000)
})
