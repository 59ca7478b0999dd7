// MX side by side with Postfix (README, "npm run bench"): Postfix's smtp-source
// sends 2,000 × 10 KB messages over 20 sessions, once opening a connection per message and once
// reusing the sessions (-d), to (a) Veilmail's `mx` and `delivery` processes started as `npm start`
// starts them (relay: smtp-sink) and (b) a private Postfix doing the same forwarding. Accept rate
// is 2,000 / smtp-source's time; end-to-end is 2,000 / the time until smtp-sink has them all.
// Veilmail is measured twice: with the machine's resolver and with a loopback DNS answering
// NXDOMAIN at once (DNS_SERVERS); Postfix before and after those two runs of a mode, the ratios
// taken against the mean of its two figures. All of it is done in BENCH_MX_ROUNDS rounds (3; one
// with BENCH_MX_QUICK=1), each from fresh starts of both sides: a cell prints its median and every
// round's ratio. CPU per message is each side's own processes' (MX, delivery and Postgres against
// Postfix's master and daemons; smtp-source and smtp-sink left out), from /proc: the CPU ratio
// moves far less between runs than the rates do. Then the drain: N forwards queued with no
// delivery process, which then starts. Everything started here is stopped on the way out, failure or not.
// Knobs: BENCH_MX_MESSAGES, BENCH_DRAIN_MESSAGES; BENCH_CPU_PROF_DIR=dir runs the Veilmail
// processes with `node --cpu-prof` into dir (open the .cpuprofile files in Chrome's DevTools);
// MX_PROCESSES and DELIVERY_PROCESSES (default 1, as `npm start`), DELIVERY_CONCURRENCY and
// QUEUE_CONCURRENCY (when set) are passed to the MX and delivery;
// BENCH_PG_STATEMENTS=1 prints Postgres's top statements (BENCH_PG_STATEMENTS_TOP of them, 15),
// WAL, server CPU by process kind and table activity per message (pg-statements.ts);
// Each side is measured twice after it starts, with the same load: "first 2,000" is the run right
// after the start, "next 2,000" the one after it. The MX and delivery are fresh Node processes
// whose first few thousand messages run code V8 has not optimised yet (MX CPU per message fell
// from 2.7 to 1.2-1.3 ms over its first 4,000 messages, alone on the machine), which Postfix,
// compiled, does not pay: the first run is what mail meets just after a restart, the second what
// it meets on a server that has been up a while. Each is compared with Postfix's run of the same rank.
// BENCH_MX_QUICK=1 measures only reused sessions with the local DNS; BENCH_MX_MODE=new|reused one mode; BENCH_MX_PARTS picks parts
// (compare,drain,memory; default all). memory (also `npm run bench -- mx-memory`): 40 concurrent
// 24 MB messages (BENCH_MEMORY_MESSAGES), peak RSS of each process (the
// per-address cap is raised to match).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { confirmForwardTarget } from '../../db/forward-targets.ts'
import { createSql, type Sql } from '../../db/client.ts'
import { loadConfig } from '../../lib/config.ts'
import { loadDkimKeys } from '../../lib/dkim-keys.ts'
import { loadTlsCredentials } from '../../lib/tls.ts'
import { printTable } from '../print-table.ts'
import { readProcfile } from '../procfile.ts'
import { freePort } from '../testing/free-port.ts'
import { startDnsStandIn } from '../testing/dns-stand-in.ts'
import { benchDatabase, PG_STATEMENTS } from './bench-db.ts'
import { pgStatements } from './pg-statements.ts'
import { forkedPids, settle, treeCpuMs } from './process-cpu.ts'
import { postfixAvailable, smtpSource, startPrivatePostfix, startSink, type Sink } from './postfix-anchor.ts'

const ROOT = path.join(import.meta.dirname, '..', '..')
const MESSAGES = Number(process.env.BENCH_MX_MESSAGES ?? 2000)
const DRAIN_MESSAGES = Number(process.env.BENCH_DRAIN_MESSAGES ?? 5000)
const SESSIONS = 20
const BYTES = 10 * 1024
const END_TO_END_LIMIT_MS = 180_000
const QUICK = process.env.BENCH_MX_QUICK === '1'
// Each cell is measured this many times, each time from a fresh start of both sides, and its median
// printed with every round's ratio: on a shared 2-core machine one run's ratio moves by ±0.1
const ROUNDS = Number(process.env.BENCH_MX_ROUNDS ?? (QUICK ? 1 : 3))
const PARTS = (process.env.BENCH_MX_PARTS ?? (QUICK ? 'compare' : 'compare,drain,memory')).split(',')
const BIG = { messages: Number(process.env.BENCH_MEMORY_MESSAGES ?? 40), bytes: 24 * 1024 * 1024 }
const allModes = [{ name: 'new connection per message', reuse: false }, { name: `${SESSIONS} reused sessions`, reuse: true }]
// BENCH_MX_MODE=new|reused measures one mode (BENCH_MX_QUICK=1 implies reused)
const pickedMode = process.env.BENCH_MX_MODE ?? (QUICK ? 'reused' : undefined)
const modes = pickedMode ? allModes.filter((m) => m.reuse === (pickedMode === 'reused')) : allModes

/** A Veilmail process as `npm start` runs it (scripts/start.ts), ready once it logged `readyEvent`. */
interface Service { name: string; child: ChildProcess; peakRssMb(): number; cpuMs(): number; count(event: string): number; stop(): Promise<void> }

const running = new Set<ChildProcess>()
// Ctrl-C or a crash: nothing this benchmark started may outlive it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

async function startService(script: string, env: Record<string, string>, readyEvent: string): Promise<Service> {
  const name = path.basename(script, '.ts')
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF_DIR)}`] : []
  // as the Procfile runs it, its Node options and priority included
  const line = readProcfile().find((l) => l.argv.at(-1) === script)
  const child = spawn(process.execPath, [...profile, ...(line?.argv.slice(1, -1) ?? []), script], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env, VEILMAIL_PROCESS: name }, stdio: ['ignore', 'pipe', 'pipe'] })
  if (line?.nice && child.pid) os.setPriority(child.pid, Math.min(19, os.getPriority() + line.nice)) // its CPU priority too, as nice(1)
  running.add(child)
  let peakKb = 0
  // VmHWM is the process's peak resident set; read it while the process is alive, with that of
  // the processes it forked (MX_PROCESSES): their sum is what the service holds.
  const hwm = (pid: number) => {
    try {
      return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      return 0
    }
  }
  const cpuMs = () => (child.pid ? treeCpuMs(child.pid) : 0)
  const sample = () => {
    if (!child.pid) return
    peakKb = Math.max(peakKb, hwm(child.pid) + forkedPids(child.pid).reduce((sum, pid) => sum + hwm(pid), 0))
  }
  const sampler = setInterval(sample, 500)
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    clearInterval(sampler)
    running.delete(child)
    resolve()
  }))
  const errors: string[] = []
  const counts = new Map<string, number>()
  createInterface({ input: child.stderr! }).on('line', (line) => errors.length < 20 && errors.push(line))
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes(`"event":"${readyEvent}"`)) resolve()
      const event = /"event":"([^"]+)"/.exec(line)?.[1]
      if (event) counts.set(event, (counts.get(event) ?? 0) + 1)
    })
    void exited.then(() => reject(new Error(`${name} exited before it was ready:\n${errors.join('\n')}`)))
  })
  const stop = async () => {
    sample()
    clearInterval(sampler)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(kill)
    }
  }
  try {
    await ready
  } catch (error) {
    await stop()
    throw error
  }
  return { name, child, peakRssMb: () => (sample(), peakKb / 1024), cpuMs, count: (event) => counts.get(event) ?? 0, stop }
}

const rate = (n: number, ms: number) => n / (ms / 1000)
const fmt = (perSecond: number | undefined) => (perSecond === undefined ? 'did not finish' : `${perSecond.toFixed(0)} msg/s`)
const times = (r: number | undefined) => (r === undefined ? '—' : `${r.toFixed(2)}×`)
const ratio = (a: number | undefined, b: number | undefined) => times(a === undefined || b === undefined ? undefined : a / b)
/** The item of `items` whose value is the median (the lower middle of an even count); undefined (did not finish) is the lowest. */
function middle<T>(items: T[], value: (item: T) => number | undefined): T {
  const sorted = [...items].sort((a, b) => (value(a) ?? -Infinity) - (value(b) ?? -Infinity))
  return sorted[Math.floor((sorted.length - 1) / 2)]
}
const medianOf = (values: (number | undefined)[]) => middle(values, (v) => v)

async function waitSink(sink: Sink, startedAt: number, limitMs: number): Promise<number | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), Math.max(0, startedAt + limitMs - performance.now())) })
  const exitedAt = await Promise.race([sink.exited, timeout])
  clearTimeout(timer)
  sink.process.kill('SIGKILL')
  return exitedAt === undefined ? undefined : exitedAt - startedAt
}

/** The runs of a side after its start, each measured: the first meets unoptimised code (see above). */
const PASSES = ['first', 'next'] as const
type Pass = (typeof PASSES)[number]

async function clearMail(sql: Sql) {
  await sql`delete from pgboss.job where name like 'forward-%'`
  await sql`delete from deliveries`
  await sql`delete from spool_messages`
  // now, not by the autovacuum these deletes wake, in the middle of the next measurement (Postfix's
  // or Veilmail's)
  await sql`vacuum pgboss.job_common, deliveries, spool_messages, spool_chunks`
}

/** `parts` picks the parts as BENCH_MX_PARTS does (`npm run bench -- mx-memory` passes ['memory']). */
export async function run(parts: string[] = PARTS) {
  const picked = new Set(parts)
  if (!postfixAvailable()) {
    console.log('\nMX vs Postfix (npm run bench -- mx): skipped, needs Debian postfix (smtp-source, smtp-sink, postfix)')
    return
  }
  const cleanups: (() => Promise<unknown>)[] = []
  try {
    const db = await benchDatabase()
    cleanups.push(() => db.close())
    const sql = createSql(db.url, { max: 2, name: 'bench' })
    cleanups.push(() => sql.end({ timeout: 5 }))
    const statements = PG_STATEMENTS ? await pgStatements(sql) : undefined
    const dns = await startDnsStandIn()
    cleanups.push(() => dns.close())
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-mx-'))
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))

    const mxPort = await freePort()
    const relayPort = await freePort()
    const env: Record<string, string> = {
      SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789', DATA_DIR: dataDir, DATABASE_URL: db.url,
      MAIL_DOMAINS: 'veilmail.test', MX_HOST: '127.0.0.1', MX_PORT: String(mxPort), OUTBOUND_SMTP_URL: `smtp://127.0.0.1:${relayPort}`, LOG_LEVEL: 'info',
      // the defaults of `npm start`: on 2 cores, 2 MX and 2 delivery processes measured lower than
      // one of each (they compete for the same CPU); set both to compare on a larger machine
      MX_PROCESSES: process.env.MX_PROCESSES ?? '1',
      DELIVERY_PROCESSES: process.env.DELIVERY_PROCESSES ?? '1',
      // to compare batch sizes: the forward queues fetch DELIVERY_CONCURRENCY / 2 jobs at a time
      ...(process.env.DELIVERY_CONCURRENCY ? { DELIVERY_CONCURRENCY: process.env.DELIVERY_CONCURRENCY } : {}),
      ...(process.env.QUEUE_CONCURRENCY ? { QUEUE_CONCURRENCY: process.env.QUEUE_CONCURRENCY } : {}),
      // the MX scoring every message with this rspamd (README, Spam filtering), for the figures with a spam filter
      ...(process.env.RSPAMD_URL ? { RSPAMD_URL: process.env.RSPAMD_URL, RSPAMD_TIMEOUT_MS: process.env.RSPAMD_TIMEOUT_MS ?? '10000' } : {}),
    }
    // TLS certificate and DKIM keys made once here, not by two processes at once.
    const config = loadConfig(env)
    loadTlsCredentials(config)
    loadDkimKeys(config)
    const [user] = await sql<{ id: string }[]>`insert into users (email, auth_method) values ('bench@example.com', 'email') returning id`
    await sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'shop', 'veilmail.test', 'me@real.test')`
    await confirmForwardTarget(sql, user.id, 'me@real.test') // the owner followed the confirmation link

    const allDns: { name: string; env: Record<string, string> }[] = [{ name: 'machine resolver', env: {} }, { name: 'local NXDOMAIN (DNS_SERVERS)', env: { DNS_SERVERS: dns.server } }]
    const dnsSetups = allDns
      .filter((d) => !QUICK || d.env.DNS_SERVERS)
    const postgresCpu = () => (db.pid ? treeCpuMs(db.pid) : NaN)
    const rows: Record<string, string>[] = []
    let steady: number | undefined

    // Postfix's own rate swings between runs on a shared machine (211 and 445 msg/s minutes apart,
    // same config): it is measured before and after Veilmail's two runs of a mode, and the ratios
    // are taken against the mean of the two, both printed.
    // `cpu`: CPU milliseconds per message of the side's own processes (smtp-source and smtp-sink,
    // the same for both, left out): the figure the machine's other load blurs least
    type Rates = { accept: number; end: number | undefined; cpu: number }
    async function measurePostfix(reuse: boolean): Promise<Record<Pass, Rates>> {
      const pfPort = await freePort()
      const postfix = await startPrivatePostfix(pfPort, relayPort)
      let pfSink: Sink | undefined
      try {
        const runs = {} as Record<Pass, Rates>
        for (const pass of PASSES) {
          pfSink = await startSink(relayPort, MESSAGES)
          const waited = await settle()
          const cpuBefore = postfix.cpuMs()
          const started = performance.now()
          const accept = rate(MESSAGES, await smtpSource(pfPort, { messages: MESSAGES, sessions: SESSIONS, bytes: BYTES, reuse }))
          const took = await waitSink(pfSink, started, END_TO_END_LIMIT_MS)
          runs[pass] = { accept, end: took === undefined ? undefined : rate(MESSAGES, took), cpu: (postfix.cpuMs() - cpuBefore) / MESSAGES }
          console.log(`  measured: Postfix, ${reuse ? 'reused sessions' : 'new connection per message'}, ${pass} ${MESSAGES} (after ${(waited / 1000).toFixed(1)} s for a quiet machine): accept ${fmt(accept)}, end-to-end ${fmt(runs[pass].end)}, CPU per message ${runs[pass].cpu.toFixed(2)} ms`)
        }
        return runs
      } finally {
        pfSink?.process.kill('SIGKILL')
        await postfix.stop()
      }
    }
    const mean = (values: (number | undefined)[]) => (values.every((v): v is number => v !== undefined) ? values.reduce((a, b) => a + b, 0) / values.length : undefined)

    for (const mode of picked.has('compare') ? modes : []) {
      // each cell's figures over the rounds, in the order measured
      const cells = new Map<string, { setup: (typeof dnsSetups)[number]; pass: Pass; rounds: ({ pf: Rates[] } & Rates & { row: Record<string, string> })[] }>()
      for (let round = 1; round <= ROUNDS; round++) {
        const postfixRuns = [await measurePostfix(mode.reuse)]
        const measured: ({ setup: (typeof dnsSetups)[number]; pass: Pass; row: Record<string, string> } & Rates)[] = []
        for (const setup of dnsSetups) {
          let sink: Sink | undefined
          const services: Service[] = []
          try {
            services.push(await startService('workers/mx/mx.ts', { ...env, ...setup.env }, 'mx.listening'))
            services.push(await startService('workers/delivery/delivery.ts', { ...env, ...setup.env }, 'delivery.started'))
            for (const pass of PASSES) {
              const finishedBefore = services[1].count('delivery.finished')
              sink = await startSink(relayPort, MESSAGES)
              await statements?.reset()
              const waited = await settle()
              const cpuBefore = [...services.map((s) => s.cpuMs()), postgresCpu()]
              const started = performance.now()
              const accept = rate(MESSAGES, await smtpSource(mxPort, { messages: MESSAGES, sessions: SESSIONS, bytes: BYTES, reuse: mode.reuse }))
              const took = await waitSink(sink, started, END_TO_END_LIMIT_MS)
              // the MX took every message once smtp-source returned; the delivery logs each it finished
              const done = [MESSAGES, services[1].count('delivery.finished') - finishedBefore, MESSAGES]
              const cpuSpent = [...services.map((s) => s.cpuMs()), postgresCpu()].map((ms, i) => ms - cpuBefore[i])
              const cpuPerMessage = cpuSpent.map((ms, i) => `${(ms / Math.max(1, done[i])).toFixed(2)} ms`)
              const cpu = cpuSpent.reduce((a, b) => a + b, 0) / MESSAGES
              const end = took === undefined ? undefined : rate(MESSAGES, took)
              measured.push({
                setup, pass, accept, end, cpu,
                row: {
                  'peak RSS mx / delivery': services.map((s) => `${s.peakRssMb().toFixed(0)} MB`).join(' / '),
                  'CPU per message mx / delivery / Postgres': cpuPerMessage.join(' / '),
                },
              })
              console.log(`  measured: ${mode.name}, ${setup.name}, ${pass} ${MESSAGES}, round ${round} of ${ROUNDS} (after ${(waited / 1000).toFixed(1)} s for a quiet machine): accept ${fmt(accept)}, end-to-end ${fmt(end)}, CPU per message mx / delivery / Postgres ${cpuPerMessage.join(' / ')}`)
              await statements?.report(`${mode.name}, ${setup.name}, ${pass} ${MESSAGES}`, MESSAGES)
              if (took === undefined) break // what is still queued would be counted in the next run
            }
          } finally {
            sink?.process.kill('SIGKILL')
            for (const s of services.reverse()) await s.stop()
            await clearMail(sql)
          }
        }
        postfixRuns.push(await measurePostfix(mode.reuse))
        for (const m of measured) {
          const key = `${m.setup.name}|${m.pass}`
          if (!cells.has(key)) cells.set(key, { setup: m.setup, pass: m.pass, rounds: [] })
          cells.get(key)!.rounds.push({ ...m, pf: postfixRuns.map((r) => r[m.pass]) })
        }
      }
      for (const { setup, pass, rounds } of cells.values()) {
        // Postfix's figure of a round: the mean of its runs before and after Veilmail's
        const pfAccept = rounds.map((r) => mean(r.pf.map((p) => p.accept))!)
        const pfEnd = rounds.map((r) => mean(r.pf.map((p) => p.end)))
        const pfCpu = rounds.map((r) => mean(r.pf.map((p) => p.cpu))!)
        const acceptRatios = rounds.map((r, i) => r.accept / pfAccept[i])
        const endRatios = rounds.map((r, i) => (r.end === undefined || pfEnd[i] === undefined ? undefined : r.end / pfEnd[i]!))
        const cpuRatios = rounds.map((r, i) => pfCpu[i] / r.cpu)
        const median = middle(rounds.map((_, i) => i), (i) => acceptRatios[i])
        if (mode.reuse && setup.env.DNS_SERVERS && pass === 'next') steady = medianOf(rounds.map((r) => r.end))
        rows.push({
          mode: mode.name, DNS: setup.name, 'after start': `${pass} ${MESSAGES}`,
          'Veilmail accept': fmt(medianOf(rounds.map((r) => r.accept))), 'Postfix accept': fmt(medianOf(pfAccept)),
          'accept ratio': times(medianOf(acceptRatios)), 'accept ratio by round': acceptRatios.map(times).join(' '),
          'Veilmail end-to-end': fmt(medianOf(rounds.map((r) => r.end))), 'Postfix end-to-end': fmt(medianOf(pfEnd)),
          'end-to-end ratio': times(medianOf(endRatios)), 'end-to-end ratio by round': endRatios.map(times).join(' '),
          // the round whose accept ratio is the median: its memory and CPU figures
          ...rounds[median].row,
          'CPU per message Veilmail / Postfix': `${medianOf(rounds.map((r) => r.cpu))!.toFixed(2)} / ${medianOf(pfCpu)!.toFixed(2)} ms`,
          'CPU ratio': times(medianOf(cpuRatios)), 'CPU ratio by round': cpuRatios.map(times).join(' '),
        })
      }
    }
    if (rows.length) {
      console.log(`\nMX vs Postfix (npm run bench -- mx): ${MESSAGES} × ${BYTES / 1024} KB, ${SESSIONS} sessions, smtp-source → MX → smtp-sink, MX_PROCESSES=${env.MX_PROCESSES}, DELIVERY_PROCESSES=${env.DELIVERY_PROCESSES}; each side measured twice after its start, in ${ROUNDS} round(s): the median, and each round's ratio in the order measured`)
      printTable(rows)
    }
    if (picked.has('drain')) await drainPart()
    if (picked.has('memory')) await memoryPart()

    // Drain: the backlog a stopped delivery process finds when it starts.
    async function drainPart() {
      const mx = await startService('workers/mx/mx.ts', { ...env, DNS_SERVERS: dns.server }, 'mx.listening')
      let drainRow: Record<string, string>
      try {
        await smtpSource(mxPort, { messages: DRAIN_MESSAGES, sessions: SESSIONS, bytes: BYTES, reuse: true })
        const [{ queued }] = await sql<{ queued: number }[]>`select count(*)::int as queued from pgboss.job where name = 'forward-email' and state = 'created'`
        const sink = await startSink(relayPort, DRAIN_MESSAGES)
        const delivery = await startService('workers/delivery/delivery.ts', { ...env, DNS_SERVERS: dns.server }, 'delivery.started')
        try {
          const cpuBefore = [delivery.cpuMs(), postgresCpu()]
          const took = await waitSink(sink, performance.now(), 300_000)
          const drain = took === undefined ? undefined : rate(DRAIN_MESSAGES, took)
          const finished = Math.max(1, delivery.count('delivery.finished'))
          drainRow = {
            figure: `drain: ${queued} due forwards, delivery process starts`, value: fmt(drain),
            'against steady end-to-end': `${fmt(steady)} (${ratio(drain, steady)}, target ≥ 0.80×)`, 'peak RSS delivery': `${delivery.peakRssMb().toFixed(0)} MB`,
            // the delivery alone on the CPU (the MX is idle): the cleanest figure of its cost
            'CPU per message delivery / Postgres': [delivery.cpuMs(), postgresCpu()].map((ms, i) => `${((ms - cpuBefore[i]) / finished).toFixed(1)} ms`).join(' / '),
            'load average': os.loadavg()[0].toFixed(1),
          }
        } finally {
          sink.process.kill('SIGKILL')
          await delivery.stop()
        }
      } finally {
        await mx.stop()
        await clearMail(sql)
      }
      console.log('')
      printTable([drainRow])
    }

    async function memoryPart() {
      const big = { ...env, DNS_SERVERS: dns.server, MX_MAX_CONNECTIONS_PER_IP: String(BIG.messages) }
      const sink = await startSink(relayPort, BIG.messages)
      const services: Service[] = []
      try {
        services.push(await startService('workers/mx/mx.ts', big, 'mx.listening'))
        services.push(await startService('workers/delivery/delivery.ts', big, 'delivery.started'))
        const started = performance.now()
        // a session the MX dropped (on a machine too busy to keep up) is reported, not a crash of the benchmark
        const accept = await smtpSource(mxPort, { messages: BIG.messages, sessions: BIG.messages, bytes: BIG.bytes, reuse: false })
          .catch((error: { stderr?: string }) => (console.log(`smtp-source: ${error.stderr?.trim() ?? error}`), undefined))
        // smtp-source ends well only when every message got its 250 (mx.accepted is a debug event, not counted)
        const took = await waitSink(sink, started, accept !== undefined ? 300_000 : 60_000)
        console.log('')
        printTable([{
          figure: `memory: ${BIG.messages} concurrent ${BIG.bytes / 1024 / 1024} MB messages`,
          accepted: accept === undefined ? `not all ${BIG.messages}` : `in ${(accept / 1000).toFixed(1)} s`,
          delivered: took === undefined ? `${services[1].count('delivery.finished')} (not all)` : `in ${(took / 1000).toFixed(1)} s`,
          'peak RSS mx': `${services[0].peakRssMb().toFixed(0)} MB`, 'peak RSS delivery': `${services[1].peakRssMb().toFixed(0)} MB`, target: '≤ 300 MB each',
        }])
      } finally {
        sink.process.kill('SIGKILL')
        for (const s of services.reverse()) await s.stop()
        await clearMail(sql)
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => console.error('cleanup failed:', e))
  }
}
