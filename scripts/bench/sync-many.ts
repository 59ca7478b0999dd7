// `npm run bench -- sync-many` (issue 32): many connected mailboxes kept fresh by the schedule alone.
// A private Dovecot with N accounts of M messages each (maildirs written directly, fast), each
// account of its own user, and the real `sync` process as the Procfile runs it (IDLE off: only the
// schedule syncs). Measured, for each number of sync processes in BENCH_SYNC_PROCESSES:
//   1. the initial sync of every account: time until all are synced;
//   2. steady state: one new message APPENDed to 10% of the accounts, then each one's delay until it
//      is stored (p50/p99), while the schedule goes on syncing every account once per interval;
//      the sync processes' CPU (% of one core) over that interval and their RSS;
//   3. Postgres connections of the sync processes (peak, sampled every second).
// BENCH_SYNC_ACCOUNTS (default 2,000), BENCH_SYNC_MESSAGES (default 50), BENCH_SYNC_INTERVAL
// (SYNC_INTERVAL_SECONDS, default 300), BENCH_SYNC_PROCESSES (default "1,2": SYNC_PROCESSES of each
// run, each on a fresh database against the same Dovecot), SYNC_CONCURRENCY as set (default 4).
// The schedule gives each account its own moment in the interval, so the delay of new mail is the
// time to that moment (uniform over the interval) plus one sync: at a shorter interval the delay
// scales with it, and the table shows it as a fraction of the interval too.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createSql, type Sql } from '../../db/client.ts'
import { loadConfig } from '../../lib/config.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'
import { readProcfile } from '../procfile.ts'
import { DOVECOT, startDovecot, type Dovecot } from '../testing/dovecot.ts'
import { benchDatabase } from './bench-db.ts'
import { percentile, printTable, sleep } from './bench-table.ts'
import { cpuMs, forkedPids } from './process-cpu.ts'

const ACCOUNTS = Number(process.env.BENCH_SYNC_ACCOUNTS ?? 2000)
const MESSAGES = Number(process.env.BENCH_SYNC_MESSAGES ?? 50)
const INTERVAL = Number(process.env.BENCH_SYNC_INTERVAL ?? 300)
const PROCESSES = (process.env.BENCH_SYNC_PROCESSES ?? '1,2').split(',').map(Number)
const FRESH_SHARE = 0.1
const SECRET_KEY = randomBytes(32).toString('base64url')
const login = (i: number) => `many${i}@mail.test`

function message(account: number, i: number, subject = `Many ${account}-${i}`): Buffer {
  const text = `Message ${i} of account ${account}. `.repeat(40 + (i % 60)).replace(/(.{1,76})(?: |$)/g, '$1\r\n')
  return Buffer.from(`From: Sender ${i % 17} <s${i % 17}@example.org>\r\nTo: ${login(account)}\r\nSubject: ${subject}\r\n` +
    `Date: ${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString()}\r\nMessage-ID: <many-${account}-${i}-${randomBytes(4).toString('hex')}@example.org>\r\n` +
    `MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`)
}

export async function run(): Promise<void> {
  if (!existsSync(DOVECOT)) {
    console.log(`\nsync-many benchmark skipped: needs ${DOVECOT} (dovecot-imapd)`)
    return
  }
  const dovecot = await startDovecot()
  const work = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-sync-many-'))
  try {
    const passwords: string[] = []
    const t0 = performance.now()
    for (let a = 0; a < ACCOUNTS; a++) {
      passwords.push(dovecot.addUser(login(a)))
      dovecot.writeMessages(login(a), Array.from({ length: MESSAGES }, (_, i) => ({ raw: message(a, i) })))
    }
    console.log(`  ${ACCOUNTS} Dovecot accounts × ${MESSAGES} messages written in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
    let onServer = ACCOUNTS * MESSAGES
    const rows: [string, string, string][] = []
    for (const processes of PROCESSES) {
      const result = await runWith(dovecot, passwords, processes, work, onServer)
      onServer += result.fresh
      rows.push(...result.rows)
    }
    printTable(`${ACCOUNTS.toLocaleString('en')} accounts × ${MESSAGES} messages, SYNC_INTERVAL_SECONDS=${INTERVAL}, SYNC_CONCURRENCY=${process.env.SYNC_CONCURRENCY ?? 4} (npm run bench -- sync-many)`, rows)
  } finally {
    await dovecot.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

interface Sampler { peakConnections: number; stop(): void }

/** Connections to the database other than the benchmark's own, every second. */
function sampleConnections(sql: Sql): Sampler {
  const s: Sampler = { peakConnections: 0, stop: () => clearInterval(timer) }
  const timer = setInterval(async () => {
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
    s.peakConnections = Math.max(s.peakConnections, n)
  }, 1000)
  return s
}

/** The sync process and those it forked: CPU ms so far, RSS and peak RSS summed (kB). */
function syncTree(child: ChildProcess) {
  const pids = [child.pid!, ...forkedPids(child.pid!)]
  const status = (pid: number, field: string) => {
    try {
      return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      return 0
    }
  }
  return {
    cpuMs: pids.reduce((sum, pid) => sum + cpuMs(pid), 0),
    rssKb: pids.map((pid) => status(pid, 'VmRSS')),
    peakKb: pids.map((pid) => status(pid, 'VmHWM')),
  }
}

async function runWith(dovecot: Dovecot, passwords: string[], processes: number, work: string, onServer: number) {
  const db = await benchDatabase()
  const sql = createSql(db.url, { max: 1 })
  const label = `SYNC_PROCESSES=${processes}`
  const rows: [string, string, string][] = []
  const config = loadConfig({ NODE_ENV: 'test', SECRET_KEY, DATABASE_URL: db.url, DATA_DIR: work, ALLOW_PRIVATE_NETWORKS: 'true' })
  let child: ChildProcess | undefined
  try {
    // each account its own user (a user's syncs take at most half the slots, as in the service)
    const users = await sql<{ id: string }[]>`
      insert into users (email, auth_method) select 'owner' || g || '@bench.test', 'email' from generate_series(1, ${ACCOUNTS}) g returning id`
    const providers = users.map((u, a) => {
      const id = crypto.randomUUID()
      const credentials = sealCredentials(config, id, { email: login(a), password: passwords[a], host: dovecot.host, port: dovecot.port, secure: true })
      return { id, user_id: u.id, provider: 'other', email: login(a), credentials, state: 'idle' }
    })
    for (let i = 0; i < providers.length; i += 500) await sql`insert into email_providers ${sql(providers.slice(i, i + 500))}`
    const [, ...procfileArgs] = readProcfile().find((p) => p.name === 'sync')!.argv
    const sampler = sampleConnections(sql)
    const started = performance.now()
    child = spawn(process.execPath, procfileArgs, {
      cwd: path.join(import.meta.dirname, '..', '..'),
      env: {
        PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, DATA_DIR: work, SECRET_KEY, ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: dovecot.caFile, SYNC_INTERVAL_SECONDS: String(INTERVAL), SYNC_IDLE_CONNECTIONS: '0', SYNC_PROCESSES: String(processes),
        SYNC_CONCURRENCY: process.env.SYNC_CONCURRENCY ?? '4', METRICS_PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    // 1. every account synced: the never-synced come first in the schedule's ticks
    for (;;) {
      const [{ synced, stored }] = await sql<{ synced: number; stored: number }[]>`
        select (select count(*)::int from email_providers where last_sync_at is not null) as synced, (select count(*)::int from received_emails) as stored`
      if (synced === ACCOUNTS && stored >= onServer) break
      if (child.exitCode !== null) throw new Error(`the sync process exited (${child.exitCode})`)
      await sleep(1000)
    }
    const initialMs = performance.now() - started
    const afterInitial = syncTree(child)
    console.log(`  ${label}: initial sync of ${ACCOUNTS} accounts in ${(initialMs / 1000).toFixed(0)} s`)

    // 2. steady state: one new message in 10% of the accounts, APPENDed now
    const fresh = Math.round(ACCOUNTS * FRESH_SHARE)
    const chosen = Array.from({ length: fresh }, (_, k) => Math.floor((k * ACCOUNTS) / fresh))
    const cpuBefore = syncTree(child).cpuMs
    const windowStart = performance.now()
    const appendedAt = new Map<string, number>()
    for (const a of chosen) {
      const subject = `Fresh ${label} ${a}`
      await dovecot.append(login(a), [{ raw: message(a, MESSAGES, subject) }])
      appendedAt.set(subject, Date.now())
    }
    const delays: number[] = []
    const deadline = performance.now() + (2 * INTERVAL + 120) * 1000
    for (;;) {
      const arrived = await sql<{ subject: string; at: number }[]>`
        select subject, (extract(epoch from created_at) * 1000)::float8 as at from received_emails where subject like ${`Fresh ${label} %`}`
      if (arrived.length === fresh || performance.now() > deadline) {
        for (const r of arrived) delays.push(Math.max(0, r.at - appendedAt.get(r.subject)!))
        break
      }
      await sleep(500)
    }
    // CPU over at least one whole interval of steady state (every account synced once in it)
    while (performance.now() - windowStart < INTERVAL * 1000) await sleep(500)
    const windowMs = performance.now() - windowStart
    const after = syncTree(child)
    sampler.stop()
    const cpuShare = (after.cpuMs - cpuBefore) / windowMs
    const [{ syncs }] = await sql<{ syncs: number }[]>`select count(*)::int as syncs from mailbox_sync_jobs where status = 'done'`
    delays.sort((x, y) => x - y)
    const s = (n: number) => `${(n / 1000).toFixed(1)} s`
    const mb = (kb: number[]) => kb.map((k) => `${(k / 1024).toFixed(0)}`).join(' + ') + ' MB'
    rows.push(
      [`${label}: initial sync of all (${(ACCOUNTS * MESSAGES).toLocaleString('en')} messages)`, s(initialMs), ''],
      [`${label}: new mail in ${fresh} accounts stored`, `${delays.length}/${fresh}`, `all`],
      [`${label}: delay of new mail p50 · p99 · max`, `${s(percentile(delays, 50))} · ${s(percentile(delays, 99))} · ${s(delays.at(-1) ?? NaN)}`, `p99 ≤ ${INTERVAL} s`],
      [`${label}: delay p50 · p99 as a share of the interval`, `${(percentile(delays, 50) / 1000 / INTERVAL).toFixed(2)} · ${(percentile(delays, 99) / 1000 / INTERVAL).toFixed(2)}`, '≤ 1'],
      [`${label}: sync CPU in steady state (${(windowMs / 1000).toFixed(0)} s window)`, `${(cpuShare * 100).toFixed(1)}% of a core`, '≤ 25%'],
      [`${label}: sync CPU during the initial sync`, `${((afterInitial.cpuMs / initialMs) * 100).toFixed(0)}% of a core`, ''],
      [`${label}: RSS (primary + forks) now / peak`, `${mb(after.rssKb)} / ${mb(after.peakKb)}`, '≤ 300 MB'],
      [`${label}: Postgres connections (peak)`, String(sampler.peakConnections), ''],
      [`${label}: syncs done (initial, then the schedule)`, String(syncs), ''],
    )
    return { fresh, rows }
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    await sql.end()
    await db.close()
  }
}
