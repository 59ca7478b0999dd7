// Outgoing mail: email jobs delivered per second to a local relay (1 KB bodies, jobs queued
// through the compose API first), and compose → relay-received latency with idle workers. The
// delivery worker runs on its own thread (its own process in production); the relay stand-in
// and the compose calls run on this one.
import { createApp } from '../../api/app.ts'
import { createSql } from '../../db/client.ts'
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { createBoss } from '../../db/queues.ts'
import { ApiClient } from '../testing/api-client.ts'
import { attachMailbox } from '../testing/mailbox.ts'
import { startRelay } from '../testing/mail-stand-ins.ts'
import { TEST_SECRET_KEY, testConfig } from '../testing/test-app.ts'
import { setLogLevel } from '../../lib/log.ts'
import { benchDatabase } from './bench-db.ts'
import { ms, percentile, printTable } from './bench-table.ts'

const BULK = 5000
const LATENCY_SAMPLES = 200
const DUE_SAMPLES = 50

export async function run(): Promise<void> {
  setLogLevel('warn')
  const db = await benchDatabase()
  const relay = await startRelay()
  const sql = createSql(db.url, { max: 16 })
  const boss = createBoss(db.url, { max: 20, maintenance: false })
  const env = { NODE_ENV: 'test', SECRET_KEY: TEST_SECRET_KEY, DATABASE_URL: db.url, OUTBOUND_SMTP_URL: relay.url, UNDO_SECONDS: '0', RATE_LIMITS: 'recipients-hour=100000000/3600,recipients-day=100000000/86400', DATA_DIR: `/tmp/veilmail-bench-${process.pid}` }
  const config = testConfig(env)
  let delivery: Worker | undefined
  try {
    await boss.start()
    const api = new ApiClient(attachMailbox(createApp({ sql, boss, config }), { sql, secretKey: config.secretKey }))
    const { user } = await api.register()
    const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: 'bench-sender', domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
    const body = 'x'.repeat(1000)
    const compose = (subject: string, scheduledAt?: Date) => api.post('/api/email-jobs', { to: 'sink@example.org', subject, body, fromAliasId: alias.id, scheduledAt })
    const arrival = (subject: string) => new Promise<number>((resolve) => {
      const check = () => (relay.messages.at(-1)?.raw.includes(`Subject: ${subject}`) ? (relay.off('message', check), resolve(Date.now())) : undefined)
      relay.on('message', check)
    })

    // Throughput: a backlog queued while no worker runs, then drained.
    let queued = 0
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (queued < BULK) await compose(`bulk ${queued++}`)
    }))
    // Timed from the first delivered message to the last: the thread's start-up is not throughput.
    let first = 0
    relay.once('message', () => (first = performance.now()))
    delivery = new Worker(new URL('./send-delivery-thread.ts', import.meta.url), { workerData: { env } })
    while (relay.messages.length < BULK) await new Promise((r) => relay.once('message', r))
    const seconds = (performance.now() - first) / 1000

    // Latency: one mail at a time into idle workers.
    const latencies: number[] = []
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const subject = `latency ${i}`
      const arrived = arrival(subject)
      const t0 = performance.now()
      await compose(subject)
      await arrived
      latencies.push(performance.now() - t0)
      await new Promise((r) => setTimeout(r, 20))
    }
    // Held mail (undo window, scheduled): from its time to the relay, idle workers between.
    const late: number[] = []
    for (let i = 0; i < DUE_SAMPLES; i++) {
      const subject = `due ${i}`
      const arrived = arrival(subject)
      const at = new Date(Date.now() + 300)
      await compose(subject, at)
      late.push((await arrived) - at.getTime())
    }
    late.sort((a, b) => a - b)
    latencies.sort((a, b) => a - b)
    printTable('Sending (npm run bench -- send)', [
      [`email jobs delivered (backlog of ${BULK}, DELIVERY_CONCURRENCY ${config.delivery.concurrency})`, `${((BULK - 1) / seconds).toFixed(0)} jobs/s`, '≥ 500 jobs/s'],
      [`compose → relay received p50 (idle workers, n=${LATENCY_SAMPLES})`, ms(percentile(latencies, 50)), '≤ 100 ms'],
      ['compose → relay received p99', ms(percentile(latencies, 99)), ''],
      [`scheduled time → relay received p50 (n=${DUE_SAMPLES})`, ms(percentile(late, 50)), ''],
      ['scheduled time → relay received p99', ms(percentile(late, 99)), ''],
    ])
  } finally {
    if (delivery) {
      delivery.postMessage('stop')
      await once(delivery, 'message')
      await delivery.terminate()
    }
    await boss.stop({ graceful: false })
    await sql.end()
    await relay.close()
    await db.close()
  }
}
