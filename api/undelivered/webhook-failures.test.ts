// Failing webhook deliveries on the owner's Undelivered list (issue 15), through the real MX, the
// real delivery worker and a webhook stand-in: listed with the HTTP status or network reason and
// the next retry; Retry makes the waiting job due now; Drop fails it for good; 404 for others.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { attachMailbox } from '../../scripts/testing/mailbox.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { queues } from '../../db/queues.ts'
import { createApp } from '../app.ts'

let env: MailEnv
let owner: ApiClient
let stranger: ApiClient
let userId: string

beforeAll(async () => {
  env = await createMailEnv()
  // An hour between tries: only the owner's Retry can bring the next one sooner.
  await env.boss.updateQueue(queues.forwardWebhook.name, { retryDelay: 3600, retryBackoff: false })
  const app = attachMailbox(createApp({ sql: env.db.sql, boss: env.boss, config: env.config, webRoot: path.join(import.meta.dirname, '..', '..', 'dist', 'web') }), env.mailbox)
  owner = new ApiClient(app)
  stranger = new ApiClient(app)
  userId = (await owner.register()).user.id
  await stranger.register()
})
afterAll(async () => {
  await env?.close()
})

async function webhookAlias(name: string, target = env.webhooks.url) {
  const res = await owner.json(owner.post(`/api/aliases/${userId}`, { alias: `${name}-${crypto.randomUUID().slice(0, 6)}`, domain: 'veilmail.test', forwardTo: target }))
  expect(res.status).toBe(201)
  return { id: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}
const failures = async (client = owner) => (await client.json(client.get('/api/undelivered/webhooks'))).body.failures
const jobOf = async (deliveryId: string) => (await env.db.sql<{ state: string; due: boolean }[]>`
  select state, start_after <= now() as due from pgboss.job where name = ${queues.forwardWebhook.name} and data->>'deliveryId' = ${deliveryId}`)[0]
const requestsFor = (marker: string) => env.webhooks.requests.filter((r) => r.body.includes(marker))

describe('failing webhook deliveries', () => {
  it('lists a failing delivery with its HTTP status and next retry; Retry delivers it now; others get 404', async () => {
    const alias = await webhookAlias('hook-retry')
    env.webhooks.statuses.push(503)
    await env.send({ to: alias.address, subject: 'hook-failing-503' })
    await expect.poll(async () => (await failures()).length).toBe(1)
    const [failure] = await failures()
    expect(failure).toMatchObject({ aliasId: alias.id, alias: alias.address, target: env.webhooks.url, attempts: 1, lastError: 'http-503' })
    expect(Date.parse(failure.lastAttemptAt)).not.toBeNaN()
    await expect.poll(async () => (await failures())[0]?.nextRetryAt ?? null).not.toBeNull()
    expect((await jobOf(failure.id))).toMatchObject({ state: 'retry', due: false })

    // another user sees nothing and can touch nothing
    expect(await failures(stranger)).toEqual([])
    expect((await stranger.post(`/api/undelivered/webhooks/${failure.id}/retry`)).status).toBe(404)
    expect((await stranger.delete(`/api/undelivered/webhooks/${failure.id}`)).status).toBe(404)
    expect((await owner.post('/api/undelivered/webhooks/not-a-uuid/retry')).status).toBe(404)

    const retried = await owner.json(owner.post(`/api/undelivered/webhooks/${failure.id}/retry`))
    expect(retried).toEqual({ status: 202, body: { message: 'Trying again now' } })
    await waitFor(env.webhooks, 'request', () => requestsFor('hook-failing-503').length >= 2)
    await expect.poll(async () => (await failures()).length).toBe(0)
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ forwarded: 1, failed: 0 })
    expect(new Set(requestsFor('hook-failing-503').map((r) => r.headers['webhook-id'])).size).toBe(1)
  })

  it('names a network failure, and Drop fails the delivery for good without another request', async () => {
    // nothing listens on port 1: connection refused
    const closed = env.webhooks.url.replace(/:\d+\//, ':1/')
    const alias = await webhookAlias('hook-drop', closed)
    await env.send({ to: alias.address, subject: 'hook-dropped' })
    await expect.poll(async () => (await failures()).length).toBe(1)
    const [failure] = await failures()
    expect(failure).toMatchObject({ target: closed, lastError: 'ECONNREFUSED' })

    const dropped = await owner.json(owner.delete(`/api/undelivered/webhooks/${failure.id}`))
    expect(dropped).toEqual({ status: 200, body: { message: 'Webhook delivery dropped' } })
    expect(await failures()).toEqual([])
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ forwarded: 0, failed: 1 })
    expect((await owner.delete(`/api/undelivered/webhooks/${failure.id}`)).status).toBe(404)
    expect((await owner.post(`/api/undelivered/webhooks/${failure.id}/retry`)).status).toBe(404)
  })

  it('puts a webhook that refused for good on the Undelivered list, as a report', async () => {
    const alias = await webhookAlias('hook-gone')
    env.webhooks.statuses.push(410)
    await env.send({ to: alias.address, subject: 'hook-gone-410' })
    await expect.poll(async () => (await owner.json(owner.get('/api/undelivered'))).body.undelivered.length).toBe(1)
    const { body } = await owner.json(owner.get('/api/undelivered'))
    expect(body.undelivered).toMatchObject([{
      kind: 'webhook', aliasId: alias.id, target: env.webhooks.url, kept: false,
      reason: 'The webhook answered HTTP 410; a 4xx other than 408 or 429 is not retried',
    }])
    expect((await stranger.json(stranger.get('/api/undelivered'))).body.undelivered).toEqual([])
    expect(await failures()).toEqual([])
  })
})
