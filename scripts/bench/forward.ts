// Forwarding benchmark (issue #4): (1) messages per second the MX accepts with durable spooling
// (10 KB messages, 4 concurrent SMTP clients, each 250 sent only after the Postgres commit), and
// (2) end-to-end latency, MX accept (the client's 250) → relay receives, at a steady 50 msg/s
// through the delivery worker. The MX runs on a thread of its own; clients use STARTTLS over
// pooled connections. DNS is an offline stand-in (SPF/DKIM/DMARC lookups answer NXDOMAIN at
// once), so the figures are ours and not a resolver's.
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import nodemailer from 'nodemailer'
import { confirmForwardTarget } from '../../db/forward-targets.ts'
import { createSql } from '../../db/client.ts'
import { loadConfig } from '../../lib/config.ts'
import { setLogLevel } from '../../lib/log.ts'
import { loadTlsCredentials } from '../../lib/tls.ts'
import { createDeliveryDeps } from '../../workers/delivery/delivery-deps.ts'
import { startDeliveryWorker } from '../../workers/delivery/delivery-worker.ts'
import { createBoss } from '../../db/queues.ts'
import { fakeResolver, startRelay } from '../testing/mail-stand-ins.ts'
import { benchDatabase } from './bench-db.ts'
import { percentile, printTable, sleep } from './bench-table.ts'

const THROUGHPUT_MESSAGES = 2000
const CLIENTS = 4
const RATE = 50
const LATENCY_SECONDS = 10

function message(i: number, to: string): string {
  const line = 'The quick brown fox jumps over the lazy dog, again and again and again.\r\n'
  return `From: Bench Sender <sender@outside.example>\r\nTo: ${to}\r\nSubject: bench ${i}\r\nMessage-ID: <bench-${i}@outside.example>\r\n` +
    `Date: ${new Date().toUTCString()}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${line.repeat(140)}`
}

export async function run() {
  setLogLevel('warn')
  const db = await benchDatabase()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-data-'))
  const relay = await startRelay()
  const env = {
    NODE_ENV: 'test', SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789', DATA_DIR: dataDir, DATABASE_URL: db.url,
    OUTBOUND_SMTP_URL: relay.url, MAIL_DOMAINS: 'veilmail.test', LOG_LEVEL: 'warn',
  }
  const config = loadConfig(env)
  loadTlsCredentials(config) // made once here, not by two threads at once
  const sql = createSql(db.url, { max: 4, name: 'bench' })
  const workerSql = createSql(db.url, { max: 30, name: 'bench-delivery' })
  const boss = createBoss(db.url, { max: 10, maintenance: false })
  await boss.start()
  const mx = new Worker(new URL('./forward-mx-thread.ts', import.meta.url), { workerData: { env } })
  const [{ port }] = (await once(mx, 'message')) as [{ port: number }]
  const [user] = await sql<{ id: string }[]>`insert into users (email, auth_method) values ('bench@example.com', 'email') returning id`
  await sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'bench', 'veilmail.test', 'inbox@mailbox.example')`
  await confirmForwardTarget(sql, user.id, 'inbox@mailbox.example') // the owner followed the confirmation link
  const to = 'bench@veilmail.test'
  const transport = (connections: number) =>
    nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false }, pool: true, maxConnections: connections, maxMessages: Infinity })

  // (1) Accepted per second, durably: no worker running, every message ends in the spool.
  const clients = Array.from({ length: CLIENTS }, () => transport(1))
  await Promise.all(clients.map((c) => c.sendMail({ envelope: { from: 'sender@outside.example', to: [to] }, raw: message(-1, to) }))) // connect
  const started = performance.now()
  await Promise.all(clients.map(async (client, c) => {
    for (let i = c; i < THROUGHPUT_MESSAGES; i += CLIENTS) await client.sendMail({ envelope: { from: 'sender@outside.example', to: [to] }, raw: message(i, to) })
  }))
  const acceptedPerSecond = THROUGHPUT_MESSAGES / ((performance.now() - started) / 1000)
  for (const c of clients) c.close()
  const [{ stored }] = await sql<{ stored: number }[]>`select count(*)::int as stored from spool_messages`
  await sql`delete from pgboss.job where name like 'forward-%'`
  await sql`delete from spool_messages`

  // (2) Latency at a steady rate through the delivery worker.
  // the same offline DNS as the MX thread, for the authentication check the MX leaves to the delivery
  const deps = createDeliveryDeps(workerSql, config, { resolver: fakeResolver() })
  await startDeliveryWorker(boss, deps, { concurrency: 8 })
  const accepted = new Map<string, number>()
  const received = new Map<string, number>()
  relay.on('message', () => {
    const m = relay.messages[relay.messages.length - 1]
    const id = /Message-ID: <(bench-\d+)@/i.exec(m.raw.toString('latin1'))?.[1]
    if (id) received.set(id, performance.now())
  })
  const client = transport(8)
  await client.sendMail({ envelope: { from: 'sender@outside.example', to: [to] }, raw: message(-2, to) })
  const total = RATE * LATENCY_SECONDS
  const t0 = performance.now()
  const sends: Promise<unknown>[] = []
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    sends.push(client.sendMail({ envelope: { from: 'sender@outside.example', to: [to] }, raw: message(100_000 + i, to) })
      .then(() => accepted.set(`bench-${100_000 + i}`, performance.now())))
  }
  await Promise.all(sends)
  const deadline = performance.now() + 30_000
  while (received.size < total + 1 && performance.now() < deadline) await sleep(50)
  const latencies = [...accepted].filter(([id]) => received.has(id)).map(([id, at]) => Math.max(0, received.get(id)! - at)).sort((a, b) => a - b)

  printTable('Forwarding (npm run bench -- forward)', [
    ['MX accepted, durably (10 KB, 4 clients)', `${acceptedPerSecond.toFixed(0)} msg/s (${stored} spooled)`, '≥ 300 msg/s'],
    [`accept → relay p50 (at ${RATE} msg/s, ${latencies.length}/${total} delivered)`, `${percentile(latencies, 50).toFixed(1)} ms`, '≤ 150 ms'],
    ['accept → relay p99', `${percentile(latencies, 99).toFixed(1)} ms`, '≤ 1000 ms'],
  ])

  client.close()
  mx.postMessage('close')
  await once(mx, 'message')
  await mx.terminate()
  await boss.stop({ graceful: true, timeout: 5000 })
  deps.transport.close()
  await relay.close()
  await sql.end({ timeout: 5 })
  await workerSql.end({ timeout: 5 })
  await db.close()
  rmSync(dataDir, { recursive: true, force: true })
}
