// A relay that stops answering and comes back: mail deferred meanwhile leaves once it answers,
// not when each message's own retry delay (an hour here) runs out.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { queues } from '../../db/queues.ts'

let env: MailEnv
let client: ApiClient
let aliasId: string

beforeAll(async () => {
  env = await createMailEnv({ env: { UNDO_SECONDS: '0', EMAIL_RETRY_DELAY_SECONDS: '3600' } })
  await env.boss.updateQueue(queues.forwardEmail.name, { retryDelay: 3600, retryBackoff: false })
  client = new ApiClient(env.app())
  const { user } = await client.register()
  aliasId = (await client.json(client.post(`/api/aliases/${user.id}`, { alias: `flush-${user.id.slice(0, 8)}`, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias.id
}, 60_000)
afterAll(() => env.close())

const retryState = (name: string) => env.db.sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where name = ${name} and state = 'retry'`.then(([row]) => row.n)

it('sends the mail deferred while the relay was down as soon as it answers again', async () => {
  await env.relayDown()
  const composed = await client.json(client.post('/api/email-jobs', { to: 'friend@example.org', subject: 'while down', body: 'b', fromAliasId: aliasId }))
  expect(composed.status).toBe(201)
  const target = await env.createAlias('reader@mailbox.example')
  await env.send({ to: target.address, subject: 'forwarded while down', headers: { 'Message-ID': '<down@outside.example>' } })
  await expect.poll(async () => (await env.db.sql`select status, last_error from email_jobs where id = ${composed.body.jobId}`)[0], { timeout: 20_000 })
    .toEqual({ status: 'retrying', lastError: 'The mail relay could not be reached' })
  await expect.poll(() => retryState(queues.forwardEmail.name), { timeout: 20_000 }).toBe(1)

  const relay = await env.relayUp()
  await waitFor(relay, 'message', () => relay.messages.some((m) => m.raw.includes('Subject: while down')) && relay.messages.some((m) => m.raw.includes('down@outside.example')))
  await expect.poll(async () => (await env.db.sql`select status from email_jobs where id = ${composed.body.jobId}`)[0].status, { timeout: 10_000 }).toBe('sent')
  // (the account's own mail from no-reply may have been deferred too)
  expect(relay.messages.filter((m) => m.from !== 'no-reply@veilmail.test')).toHaveLength(2)
})
