// `npm start` as a user runs it: a real supervisor with embedded Postgres in a fresh DATA_DIR.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embeddedUrl, runningPostmasterPid } from '../db/embedded.ts'
import { isAlive } from '../lib/process-alive.ts'
import { createSql } from '../db/client.ts'
import { readFileSync } from 'node:fs'
import { MONITORED_PROCESSES } from '../db/heartbeat.ts'
import { processesBeatingSince } from '../db/process-heartbeats.ts'
import { METRICS_PORT_OFFSET } from '../db/metrics.ts'
import { checkMetrics, promtoolAvailable } from './testing/promtool.ts'
import { createTestDatabase } from './testing/test-database.ts'
import { freePort } from './testing/free-port.ts'

const ROOT = path.join(import.meta.dirname, '..')
/** advisory lock key the test holds to keep a process's heartbeat waiting */
const HOLD_BEAT = 4_246_078
let dataDir: string
let env: NodeJS.ProcessEnv

interface Started { child: ChildProcess; output: () => string; exited: Promise<number | null> }

/** `node scripts/start.ts`, or `npm start` itself (npm → sh → the supervisor) with `viaNpm`. */
function start(viaNpm = false, extraEnv: NodeJS.ProcessEnv = {}): Started {
  const options: SpawnOptions = { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] }
  const child = viaNpm ? spawn('npm', ['start', '--silent'], options) : spawn(process.execPath, ['scripts/start.ts'], options)
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => out, exited }
}

async function waitFor(s: Started, pattern: RegExp, ms = 90_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const match = pattern.exec(s.output())
    if (match) return match
    if (s.child.exitCode !== null) throw new Error(`exited early:\n${s.output()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${pattern}:\n${s.output()}`)
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-start-'))
  const port = await freePort()
  env = {
    PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info',
    DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), METRICS_PORT: String(await freePort()),
    MX_PORT: String(await freePort()), SUBMISSION_PORT: String(await freePort()), SUBMISSION_TLS_PORT: String(await freePort()),
  }
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const readProcfileNames = () => readFileSync(path.join(ROOT, 'Procfile'), 'utf8').split('\n').filter((l) => /^\w+:/.test(l)).map((l) => l.split(':')[0])

/** What a failure needs to be read: the supervisor's lines, warnings, errors and stack traces (no info/debug logs). */
const notes = (output: string) => output.split('\n').filter((l) => !/"level":"(info|debug)"/.test(l)).slice(-60).join('\n')

const pids = (s: Started) => [...s.output().matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]))

describe('npm start', () => {
  it('runs everything, refuses a second copy, restarts a crashed child, and stops cleanly', async () => {
    const first = start()
    const [, url] = await waitFor(first, /Veilmail is running at (\S+)/)
    // printed last, once every process reports alive
    expect(first.output().trimEnd().split('\n').slice(-2).join('\n')).toMatch(new RegExp(`web ${env.PORT} · mx ${env.MX_PORT} · submission ${env.SUBMISSION_PORT} .*\n.*Veilmail is running at`))
    const health = await (await fetch(`${url}/api/health`)).json()
    expect(health).toMatchObject({ ok: true, db: true, queue: true })
    expect(Object.keys(health.processes)).toEqual(readProcfileNames())
    for (const name of MONITORED_PROCESSES) expect({ name, alive: health.processes[name].alive }).toEqual({ name, alive: true })
    // the Procfile's `nice -n 10`: the delivery yields the CPU to the MX (and the rest) under load
    const priorityOf = async (name: string) => os.getPriority(Number((await waitFor(first, new RegExp(`${name}\\s+started \\(pid (\\d+)\\)`)))[1]))
    const own = os.getPriority()
    expect({ delivery: await priorityOf('delivery'), mx: await priorityOf('mx'), web: await priorityOf('web') }).toEqual({ delivery: Math.min(19, own + 10), mx: own, web: own })
    // each process's metrics on a loopback port of its own, never on the public one
    const metricsAt = (offset: number) => fetch(`http://127.0.0.1:${Number(env.METRICS_PORT) + offset}/metrics`).then((r) => r.text())
    expect(await metricsAt(0)).toContain('veilmail_queue_jobs{queue="send-email",state="created"}')
    const delivery = await metricsAt(2)
    expect(delivery).toContain('# HELP veilmail_jobs_total')
    expect(delivery).toMatch(/^process_resident_memory_bytes \d+/m)
    expect(await metricsAt(4)).toContain('# HELP veilmail_sync_runs_total')
    expect(await (await fetch(`${url}/metrics`)).text()).not.toContain('process_resident_memory_bytes')
    // every process's exposition passes Prometheus's own linter (an empty body passes too, so each must hold metrics)
    if (promtoolAvailable()) {
      for (const name of MONITORED_PROCESSES) {
        const text = await metricsAt(METRICS_PORT_OFFSET[name])
        expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
        expect({ name, ...(await checkMetrics(text)) }).toEqual({ name, code: 0, output: '' })
      }
    }
    const home = await fetch(url)
    expect(home.status).toBe(200)
    expect(await home.text()).toContain('<div id="root">')

    // a second start on the same DATA_DIR fails at once and harms nothing
    const second = start()
    expect(await second.exited).toBe(1)
    expect(second.output()).toMatch(/already running on .* \(pid \d+\)/)
    expect((await fetch(`${url}/api/health`)).status).toBe(200)

    // a crashed child is reported and restarted
    const webPid = Number((await waitFor(first, /web\s+started \(pid (\d+)\)/))[1])
    process.kill(webPid, 'SIGKILL')
    await waitFor(first, /web exited \(SIGKILL\); restarting/)
    await waitFor(first, new RegExp(`web\\s+started \\(pid (?!${webPid})\\d+\\)`))
    await expect.poll(() => fetch(`${url}/api/health`).then((r) => r.status, () => 0), { timeout: 20_000 }).toBe(200)

    const res = await fetch(`${url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@example.com', password: 'longenough' }) })
    expect(res.status).toBe(202) // registered; signed in once the mailed link is followed

    const pgPid = runningPostmasterPid(path.join(dataDir, 'postgres'))!
    expect(pgPid).toBeGreaterThan(0)
    first.child.kill('SIGINT')
    expect(await first.exited).toBe(0)
    expect(isAlive(pgPid)).toBe(false)
    await expect(fetch(`${url}/api/health`)).rejects.toThrow()

    // data survives a restart
    const third = start()
    await waitFor(third, /Veilmail is running at/)
    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@example.com', password: 'longenough' }) })
    expect(login.status).toBe(200)

    // a supervisor killed outright: its children follow it, and the next start takes over the
    // Postgres it left running
    third.child.kill('SIGKILL')
    await third.exited
    await expect.poll(() => fetch(`${url}/api/health`).then(() => 'up', () => 'down'), { timeout: 10_000 }).toBe('down')
    const orphan = runningPostmasterPid(path.join(dataDir, 'postgres'))
    expect(orphan).toBeGreaterThan(0)
    const fourth = start()
    await waitFor(fourth, /Veilmail is running at/)
    expect(isAlive(orphan!)).toBe(false)
    fourth.child.kill('SIGTERM')
    expect(await fourth.exited).toBe(0)
  }, 180_000)

  it('stops within 20 s when npm itself gets SIGINT or SIGTERM, and starts healthy again on the same data', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const run = start(true)
      const [, url] = await waitFor(run, /Veilmail is running at (\S+)/)
      const supervisor = Number(readFileSync(path.join(dataDir, 'veilmail.pid'), 'utf8'))
      const pgPid = runningPostmasterPid(path.join(dataDir, 'postgres'))!
      const everything = [supervisor, pgPid, ...pids(run)]
      expect(everything.length).toBe(2 + MONITORED_PROCESSES.length)
      expect(everything.every(isAlive)).toBe(true)
      expect(supervisor).not.toBe(run.child.pid) // the signal goes to npm, not to the supervisor
      run.child.kill(signal)
      await expect.poll(() => everything.filter(isAlive), { timeout: 20_000, interval: 200 }).toEqual([])
      await run.exited
      expect(run.output()).toContain('stopped')
      await expect(fetch(`${url}/api/health`)).rejects.toThrow()
    }
    const again = start(true)
    const [, url] = await waitFor(again, /Veilmail is running at (\S+)/)
    expect((await fetch(`${url}/api/health`)).status).toBe(200)
    const left = [...pids(again), Number(readFileSync(path.join(dataDir, 'veilmail.pid'), 'utf8')), runningPostmasterPid(path.join(dataDir, 'postgres'))!]
    again.child.kill('SIGTERM')
    await expect.poll(() => left.filter(isAlive), { timeout: 20_000, interval: 200 }).toEqual([])
  }, 240_000)

  it('restarts an embedded Postgres killed with SIGKILL; every process reconnects and nothing is lost', async () => {
    const run = start()
    const [, url] = await waitFor(run, /Veilmail is running at (\S+)/)
    const post = (p: string, body: object) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await post('/api/auth/register', { email: 'before-crash@example.com', password: 'longenough' })).status).toBe(202)
    const children = pids(run)

    const pgPid = runningPostmasterPid(path.join(dataDir, 'postgres'))!
    process.kill(pgPid, 'SIGKILL')
    await waitFor(run, /Postgres exited; restarting in/)
    await waitFor(run, /Postgres restarted \(pid (\d+)\)/, 120_000)
    expect(runningPostmasterPid(path.join(dataDir, 'postgres'))).not.toBe(pgPid)

    // every process beats into the new server: clear the table and see each one write again
    const sql = createSql(embeddedUrl(path.join(dataDir, 'postgres'), Number(env.EMBEDDED_PG_PORT)), { max: 1 })
    try {
      await expect.poll(() => sql`delete from process_heartbeats`.then(() => true, () => false), { timeout: 30_000 }).toBe(true)
      await expect.poll(async () => {
        const body = await fetch(`${url}/api/health`).then((r) => r.json(), () => undefined)
        return body && MONITORED_PROCESSES.filter((name) => !body.processes?.[name]?.alive)
      }, { timeout: 60_000, interval: 500 }).toEqual([])
    } finally {
      await sql.end()
    }
    // the same processes carried on (none died and was restarted), with the data from before
    expect(children.filter((pid) => !isAlive(pid)), notes(run.output())).toEqual([])
    expect(run.output()).not.toMatch(/(web|mx|delivery|submission|sync) exited/)
    await expect.poll(() => post('/api/auth/login', { email: 'before-crash@example.com', password: 'longenough' }).then((r) => r.status), { timeout: 30_000 }).toBe(200)
    expect((await post('/api/auth/register', { email: 'after-crash@example.com', password: 'longenough' })).status).toBe(202)

    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(runningPostmasterPid(path.join(dataDir, 'postgres'))).toBeUndefined()
  }, 240_000)

  it('says it is running only once every process it started beats, not on the rows a killed copy left', async () => {
    const db = await createTestDatabase()
    const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-start-url-'))
    try {
      // a copy killed a moment ago left a row for each process that looks alive for a while
      await db.sql`insert into process_heartbeats (process, instance) select unnest(${MONITORED_PROCESSES}::text[]), 'killed:1'`
      const [{ now: since }] = await db.sql<{ now: Date }[]>`select now()`
      // this copy's delivery can not beat (its heartbeat waits on a lock the test holds); the others do
      await db.sql.unsafe(`
        create function test_hold_beat() returns trigger language plpgsql as $$
        begin if new.process = 'delivery' then perform pg_advisory_xact_lock_shared(${HOLD_BEAT}); end if; return new; end $$;
        create trigger test_hold_beat before insert on process_heartbeats for each row execute function test_hold_beat();`)
      const holder = await db.sql.reserve()
      await holder`select pg_advisory_lock(${HOLD_BEAT})`
      try {
        const run = start(false, { DATABASE_URL: db.url, DATA_DIR: dir })
        const others = MONITORED_PROCESSES.filter((name) => name !== 'delivery')
        await expect.poll(async () => (await processesBeatingSince(db.sql, MONITORED_PROCESSES, since)).sort(), { timeout: 60_000, interval: 200 }).toEqual([...others].sort())
        await expect.poll(async () => (await db.sql`select 1 from pg_locks where locktype = 'advisory' and objid = ${HOLD_BEAT} and not granted`).length, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0)
        // the supervisor has asked again since every other process beat: two health queries after that moment
        const [{ now: othersUp }] = await db.sql<{ now: Date }[]>`select now()`
        for (let i = 0; i < 2; i++) {
          const [{ now: after }] = await db.sql<{ now: Date }[]>`select now()`
          await expect.poll(async () => (await db.sql`select 1 from pg_stat_activity where application_name = 'veilmail-start' and query_start > ${i ? after : othersUp}`).length, { timeout: 30_000, interval: 50 }).toBe(1)
        }
        expect(run.output()).not.toContain('Veilmail is running')
        run.child.kill('SIGTERM')
        expect(await run.exited).toBe(0)
      } finally {
        await holder`select pg_advisory_unlock(${HOLD_BEAT})`
        holder.release()
      }
    } finally {
      await db.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('refuses once, before starting anything, when DKIM_KEYS_DIR has no key for a mail domain', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'veilmail-dkim-'))
    try {
      const refused = start(false, { DKIM_KEYS_DIR: empty })
      expect(await refused.exited).toBe(78)
      expect(refused.output()).toMatch(/Invalid configuration:\n {2}DKIM_KEYS_DIR: no key for \S+ \(expected \S+\.pem\)/)
      expect(refused.output()).not.toMatch(/started \(pid|restarting/)
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  }, 60_000)

  it('stops everything, once, when a process refuses its configuration instead of restarting it again and again', async () => {
    const refused = start(false, { QUEUE_CONCURRENCY: 'no-such-queue=4' })
    expect(await refused.exited).toBe(78)
    const output = refused.output()
    expect(output).toContain('QUEUE_CONCURRENCY: no queue named no-such-queue')
    expect(output).toMatch(/delivery refused its configuration \(see above\); stopping/)
    expect(output).not.toMatch(/delivery exited .*restarting/)
    expect(output).toMatch(/stopping Postgres[^]*stopped\n$/)
  }, 120_000)
})
