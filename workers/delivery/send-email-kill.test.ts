// The `delivery` process killed with SIGKILL while it is sending an email job: the job's lease
// expires, the next worker takes it over, and the relay gets the message exactly once.
import { once } from 'node:events'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { deliveryProcesses, type DeliveryProcesses } from '../../scripts/testing/delivery-processes.ts'
import { queues } from '../../db/queues.ts'

let env: MailEnv
let processes: DeliveryProcesses

beforeAll(async () => {
  env = await createMailEnv({ worker: false, env: { UNDO_SECONDS: '0', EMAIL_RETRY_DELAY_SECONDS: '1' } })
  processes = await deliveryProcesses(env, queues.sendEmail)
})
afterAll(async () => {
  await processes?.close()
  await env?.close()
})

const startDeliveryProcess = () => processes.start()

it('sends exactly once when the delivery worker is killed mid-send', async () => {
  const api = new ApiClient(env.app())
  const { user } = await api.register()
  const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: `kill-${user.id.slice(0, 8)}`, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
  const first = startDeliveryProcess()
  // the account's own mail (verification, target confirmation) leaves first, so the send held
  // below is the composed one
  await waitFor(env.relay, 'message', () => env.relay.messages.filter((m) => m.from === 'no-reply@veilmail.test').length >= 2, 25_000)
  env.relay.holdData = new Promise(() => {}) // the first attempt never hears back from the relay
  const { body } = await api.json(api.post('/api/email-jobs', { to: 'once@example.org', subject: 'exactly once', body: 'hello', fromAliasId: alias.id }))
  await once(env.relay, 'data-started')
  first.kill('SIGKILL')
  await once(first, 'exit')
  expect((await api.json(api.get(`/api/email-jobs/${body.jobId}/status`))).body.status).toBe('sending')
  env.relay.holdData = undefined

  const second = startDeliveryProcess()
  await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes('Subject: exactly once')), 25_000)
  await expect.poll(async () => (await api.json(api.get(`/api/email-jobs/${body.jobId}/status`))).body.status, { timeout: 10_000 }).toBe('sent')
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: exactly once'))).toHaveLength(1)
  second.kill('SIGTERM')
  await once(second, 'exit')
}, 45_000)
