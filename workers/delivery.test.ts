// The `delivery` process as it runs in production, killed with SIGKILL in the middle of a send:
// the job comes back (its lease expires) and the message is delivered by the next worker.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../scripts/testing/mail-env.ts'
import { waitFor } from '../scripts/testing/mail-stand-ins.ts'
import { TEST_SECRET_KEY } from '../scripts/testing/test-app.ts'
import { queues } from './queues.ts'

let env: MailEnv
let monitor: PgBoss
const children: ChildProcess[] = []

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  // A lease of a few seconds instead of minutes, and a monitor that looks every second.
  await env.boss.updateQueue(queues.forwardEmail.name, { expireInSeconds: 3, heartbeatSeconds: null })
  monitor = new PgBoss({ connectionString: env.db.url, schema: 'pgboss', max: 2, supervise: true, schedule: false, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 })
  monitor.on('error', () => {})
  await monitor.start()
})
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await monitor?.stop({ graceful: false })
  await env?.close()
})

function startDeliveryProcess(): ChildProcess {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'delivery.ts')], {
    env: {
      PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, SECRET_KEY: TEST_SECRET_KEY,
      OUTBOUND_SMTP_URL: env.relay.url, MAIL_DOMAINS: env.config.mailDomains.join(','), MX_HOSTNAME: env.config.mxHostname, DELIVERY_POLL_SECONDS: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(child)
  return child
}

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
  const delivered = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes('kill-test@outside.example')), 25_000)
  expect(delivered.to).toEqual(['survivor@mailbox.example'])
  await expect.poll(async () => (await env.db.sql`select count(*)::int as n from spool_messages`)[0].n, { timeout: 10_000 }).toBe(0)
  expect(env.relay.messages.filter((m) => m.raw.includes('kill-test@outside.example'))).toHaveLength(1)
  second.kill('SIGTERM')
  await once(second, 'exit')
}, 45_000)
