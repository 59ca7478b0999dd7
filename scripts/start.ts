// npm start: the whole service on one machine. Embedded Postgres (unless DATABASE_URL) →
// migrations → web build if stale → every Procfile line as a child with prefixed output.
// Ctrl-C stops the children, then Postgres. A child that dies is restarted with backoff, and so
// is the embedded Postgres (the children reconnect on their own).
//
// Signals: package.json runs this as `exec node scripts/start.ts`, so the shell npm starts is
// replaced by this process and the SIGINT/SIGTERM npm forwards to its child reach us (without
// exec, sh keeps waiting on SIGINT and dies on SIGTERM, orphaning us). Should our parent still
// die first (SIGKILL, another runner), the ppid check below stops everything too.
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts'
import { embeddedDir } from '../db/database-url.ts'
import { config } from '../lib/config.ts'
import { createSql, type Sql } from '../db/client.ts'
import { MONITORED_PROCESSES } from '../db/heartbeat.ts'
import { processesBeatingSince } from '../db/process-heartbeats.ts'
import { metricsPort } from '../db/metrics.ts'
import { acquireDataDirLock, DataDirBusyError } from './data-dir-lock.ts'
import { migrateAll } from './migrate-all.ts'
import { readProcfile, type ProcessLine } from './procfile.ts'
import { ensureWebBuild } from './web-build.ts'
import { DkimConfigError, loadDkimKeys } from '../lib/dkim-keys.ts'
import { rspamdInstalled, RSPAMD_BINARY, startRspamd, type RspamdServer } from '../lib/rspamd-server.ts'

const ROOT = path.join(import.meta.dirname, '..')
/** sysexits.h EX_CONFIG: a process that exits with it found its configuration wrong */
const EX_CONFIG = 78
const COLORS = [36, 35, 33, 32, 34, 91]
const say = (line: string) => process.stdout.write(`\x1b[1mveilmail\x1b[0m | ${line}\n`)

function prefixed(stream: NodeJS.ReadableStream, name: string, color: number) {
  let rest = ''
  const label = `\x1b[${color}m${name.padEnd(10)}\x1b[0m | `
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n')
    rest = lines.pop() ?? ''
    // the lines of a chunk in one write: a busy delivery logs a line per forward, many per chunk
    if (lines.length) process.stdout.write(lines.map((line) => label + line + '\n').join(''))
  })
}

const cfg = config()
let release: () => void
try {
  release = acquireDataDirLock(cfg.dataDir)
} catch (error) {
  if (error instanceof DataDirBusyError) {
    process.stderr.write(error.message + '\n')
    process.exit(1)
  }
  throw error
}
// Each mail domain's DKIM key, as the delivery will load it (generated into DATA_DIR/dkim when
// DKIM_KEYS_DIR is unset, so only once this start owns DATA_DIR): a missing key is said once here,
// before anything starts, not by a delivery process restarted again and again.
try {
  loadDkimKeys(cfg)
} catch (error) {
  if (!(error instanceof DkimConfigError)) throw error
  process.stderr.write(`Invalid configuration:\n  ${error.message}\n`)
  release()
  process.exit(EX_CONFIG)
}

let db: EmbeddedDatabase | undefined
let rspamd: RspamdServer | undefined
let shuttingDown = false
const children = new Map<string, ChildProcess>()

async function shutdown(code: number) {
  if (shuttingDown) return
  shuttingDown = true
  say('stopping…')
  const exits = [...children.values()].map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
  }))
  await Promise.all(exits)
  if (rspamd) {
    say('stopping rspamd')
    await rspamd.stop()
  }
  if (db) {
    say('stopping Postgres')
    await db.stop()
  }
  release()
  say('stopped')
  process.exit(code)
}
process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))
const parentPid = process.ppid
setInterval(() => {
  if (process.ppid !== parentPid) {
    say(`parent process ${parentPid} is gone`)
    void shutdown(0)
  }
}, 1000).unref()

try {
  let databaseUrl = cfg.databaseUrl
  if (!databaseUrl) {
    say(`starting embedded Postgres in ${embeddedDir(cfg)} on port ${cfg.embeddedPgPort}`)
    db = await startEmbeddedPostgres({ dir: embeddedDir(cfg), port: cfg.embeddedPgPort })
    superviseDatabase(db)
    databaseUrl = db.url
  }
  const applied = await migrateAll(databaseUrl, cfg.secretKey)
  say(applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date')
  await ensureWebBuild(say)
  if (shuttingDown) await new Promise(() => {})

  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, VEILMAIL_SUPERVISOR_PID: String(process.pid) }
  const spamFilter = await startSpamFilter()
  if (spamFilter) env.RSPAMD_URL = spamFilter
  const sql = createSql(databaseUrl, { max: 1, name: 'veilmail-start' })
  const [{ now: spawnedAt }] = await sql<{ now: Date }[]>`select now()`
  readProcfile().forEach((line, i) => supervise(line, COLORS[i % COLORS.length], env))
  await waitForHealth(sql, spawnedAt).finally(() => sql.end({ timeout: 5 }))
  // last, once every process is up, so the address is not scrolled away by their startup lines
  if (!shuttingDown) {
    const metrics = (name: string) => metricsPort(cfg, name) ?? 'off'
    say(`web ${cfg.port} · mx ${cfg.mx.port} · submission ${cfg.submission.port} (STARTTLS), ${cfg.submission.tlsPort} (TLS)` +
      `${db ? ` · Postgres ${cfg.embeddedPgPort}` : ''} · metrics ${cfg.metrics.host}:${MONITORED_PROCESSES.map(metrics).join('/')} (${MONITORED_PROCESSES.join('/')})`)
    say(`Veilmail is running at ${cfg.publicUrl}  (Ctrl-C to stop)`)
  }
} catch (error) {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`)
  await shutdown(1)
}

/**
 * The spam filter the MX asks: RSPAMD_URL when set; else a private rspamd in DATA_DIR/rspamd when
 * Debian's rspamd is installed (lib/rspamd-server.ts); else none, said plainly (mail is then
 * accepted unscored). Its URL, for the children's RSPAMD_URL.
 */
async function startSpamFilter(): Promise<string | undefined> {
  if (cfg.rspamdUrl) {
    say(`spam filter: rspamd at ${cfg.rspamdUrl} (RSPAMD_URL)`)
    return undefined
  }
  if (!rspamdInstalled()) {
    say(`no spam filter: ${RSPAMD_BINARY} is not installed (Debian package rspamd) and RSPAMD_URL is unset, so mail is accepted without spam scoring`)
    return undefined
  }
  const dir = path.join(cfg.dataDir, 'rspamd')
  say(`starting rspamd in ${dir} (its first start compiles its rules, up to a minute)`)
  try {
    rspamd = await startRspamd({ dir, dnsServers: cfg.dnsServers })
  } catch (error) {
    say(`no spam filter: ${error instanceof Error ? error.message : String(error)}; mail is accepted without spam scoring`)
    return undefined
  }
  const url = rspamd.url
  superviseRspamd(rspamd, dir, Number(new URL(url).port))
  say(`spam filter: rspamd at ${url}`)
  return url
}

interface Restartable { pid: number; exited: Promise<void>; stop(): Promise<void> }

/**
 * A service of ours (the embedded Postgres, the private rspamd) started again with backoff when it
 * dies (killed, out of memory): 1 s doubling to 30 s, from 1 s again once it ran a minute.
 */
function restartOnExit<S extends Restartable>(service: { name: string; exitNote?: string; start: () => Promise<S>; started: (s: S) => void }, current: S, attempt = 0) {
  const began = Date.now()
  void current.exited.then(async () => {
    if (shuttingDown) return
    let next = Date.now() - began > 60_000 ? 0 : attempt + 1
    for (;;) {
      const delay = Math.min(30_000, 1000 * 2 ** Math.max(0, next - 1))
      say(`${service.name} exited${service.exitNote ?? ''}; restarting in ${delay / 1000}s`)
      await new Promise((r) => setTimeout(r, delay))
      if (shuttingDown) return
      try {
        const restarted = await service.start()
        service.started(restarted)
        if (shuttingDown) return await restarted.stop() // shutdown() may have passed its step for it meanwhile
        say(`${service.name} restarted (pid ${restarted.pid})`)
        return restartOnExit(service, restarted, next)
      } catch (error) {
        // e.g. a killed Postgres's backends still hold its shared memory for a moment
        say(`${service.name} did not start: ${error instanceof Error ? error.message : String(error)}`)
        next++
      }
    }
  })
}

/** rspamd, on the same port (the processes were given its URL); meanwhile the MX accepts mail unscored (fail open). */
function superviseRspamd(current: RspamdServer, dir: string, port: number) {
  restartOnExit({
    name: 'rspamd', exitNote: ` (see ${path.join(dir, 'rspamd.log')}; mail is accepted unscored until it is back)`,
    start: () => startRspamd({ dir, dnsServers: cfg.dnsServers, port }),
    started: (s) => { rspamd = s },
  }, current)
}

/** The embedded Postgres (the children reconnect on their own). */
function superviseDatabase(current: EmbeddedDatabase) {
  restartOnExit({
    name: 'Postgres',
    start: () => startEmbeddedPostgres({ dir: embeddedDir(cfg), port: cfg.embeddedPgPort }),
    started: (s) => { db = s },
  }, current)
}

function supervise(line: ProcessLine, color: number, env: NodeJS.ProcessEnv, attempt = 0) {
  if (shuttingDown) return
  const started = Date.now()
  const [cmd, ...args] = line.argv
  const child = spawn(cmd === 'node' ? process.execPath : cmd, args, {
    cwd: ROOT,
    env: { ...env, VEILMAIL_PROCESS: line.name },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.set(line.name, child)
  // `nice -n N` in the Procfile: N above our own niceness, as nice(1); the processes it forks
  // (DELIVERY_PROCESSES) inherit it
  try {
    if (line.nice && child.pid) os.setPriority(child.pid, Math.min(19, os.getPriority() + line.nice))
  } catch {
    // gone already: its exit handler below starts it again
  }
  say(`${line.name} started (pid ${child.pid})`)
  prefixed(child.stdout!, line.name, color)
  prefixed(child.stderr!, line.name, color)
  child.on('exit', (code, signal) => {
    if (shuttingDown) return
    // its configuration is wrong (it said why above): starting it again would only say it again
    if (code === EX_CONFIG) {
      say(`${line.name} refused its configuration (see above); stopping`)
      return void shutdown(EX_CONFIG)
    }
    // A child that ran a while before dying starts again from the shortest delay.
    const next = Date.now() - started > 60_000 ? 0 : attempt + 1
    const delay = Math.min(30_000, 1000 * 2 ** Math.max(0, next - 1))
    say(`${line.name} exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000}s`)
    setTimeout(() => supervise(line, color, env, next), delay)
  })
}

/**
 * Until the web answers and every process it started has beaten since (a row a killed copy left
 * behind looks alive in /api/health for HEARTBEAT_STALE_SECONDS, but it is not one of ours).
 */
async function waitForHealth(sql: Sql, spawnedAt: Date) {
  const url = `http://127.0.0.1:${cfg.port}/api/health`
  for (let i = 0; i < 1200 && !shuttingDown; i++) {
    const web = await fetch(url).then((r) => r.ok, () => false)
    const beating = await processesBeatingSince(sql, MONITORED_PROCESSES, spawnedAt).catch(() => [])
    if (web && beating.length === MONITORED_PROCESSES.length) return
    await new Promise((r) => setTimeout(r, 100))
  }
}
