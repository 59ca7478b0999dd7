// The `delivery` process as it runs in production, killed with SIGKILL in the middle of a send:
// the job comes back (its heartbeat lapses) and the next worker delivers it within 30 s, with the
// queue's production retry delay of 30 s and more.
import { once } from 'node:events'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { deliveryProcesses, type DeliveryProcesses } from '../../scripts/testing/delivery-processes.ts'
import { queues } from '../../db/queues.ts'

let env: MailEnv
let processes: DeliveryProcesses

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  processes = await deliveryProcesses(env, queues.forwardEmail)
})
afterAll(async () => {
  await processes?.close()
  await env?.close()
})

const startDeliveryProcess = () => processes.start()

it('loses nothing when the delivery worker is killed mid-job', async () => {
  const alias = await env.createAlias('survivor@mailbox.example')
  env.relay.holdData = new Promise(() => {}) // the first send never gets its answer
  const first = startDeliveryProcess()
  await env.send({ to: alias.address, subject: 'kill-test', headers: { 'Message-ID': '<kill-test@outside.example>' } })
  await once(env.relay, 'data-started')
  first.kill('SIGKILL')
  await once(first, 'exit')
  env.relay.holdData = undefined

  const second = startDeliveryProcess()
  // the bound: a job whose worker died is retried within 30 s
  const delivered = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes('kill-test@outside.example')), 30_000)
  expect(delivered.to).toEqual(['survivor@mailbox.example'])
  await expect.poll(async () => (await env.db.sql`select count(*)::int as n from spool_messages`)[0].n, { timeout: 10_000 }).toBe(0)
  expect(env.relay.messages.filter((m) => m.raw.includes('kill-test@outside.example'))).toHaveLength(1)
  second.kill('SIGTERM')
  await once(second, 'exit')
}, 60_000)
