// A private rspamd (Debian's `rspamd`) for `npm start` and the tests, as the embedded Postgres is
// for the database: its configuration is made in `dir` (DATA_DIR/rspamd), where its databases and
// log live too. It is Debian's stock configuration (/etc/rspamd) with its scanner workers (the
// "normal" worker, the HTTP protocol the MX speaks, `/checkv2`) on 127.0.0.1 at a free port, and
// no controller (no web interface, no password to keep) and no proxy or fuzzy worker. Without redis
// the modules that need it are off; greylisting and rate limits are turned off outright, as is the
// greylist action: without redis to remember a sender, a greylisted message would be refused on
// every retry. Files an operator adds to `dir/local.d` (rules, scores) are read as well; the ones
// named below are rewritten at each start.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { freePort } from './free-port.ts'
import { isAlive } from './process-alive.ts'

export const RSPAMD_BINARY = '/usr/bin/rspamd'
const STOCK_CONFIG = '/etc/rspamd'

export interface RspamdServer {
  /** the normal worker's base URL, for RSPAMD_URL */
  url: string
  pid: number
  /** settles when rspamd exits, stopped or not */
  exited: Promise<void>
  stop(): Promise<void>
}

export interface RspamdOptions {
  dir: string
  port?: number
  /** DNS_SERVERS, for rspamd's own lookups (SPF, DKIM, DMARC, DNS block lists); unset = the system's */
  dnsServers?: string[]
  /** more files for `dir/local.d` (name → content), e.g. a test's rule */
  localConfig?: Record<string, string>
  binary?: string
  /** how long rspamd may take to answer /ping after its start (it loads its maps and rules) */
  startTimeoutMs?: number
}

/** Whether rspamd can be started here: the binary and Debian's stock configuration are installed. */
export function rspamdInstalled(binary = RSPAMD_BINARY): boolean {
  return existsSync(binary) && existsSync(path.join(STOCK_CONFIG, 'common.conf'))
}

const nameserver = (server: string) => (isIP(server) === 6 ? `[${server}]` : server)

function configFiles(port: number, dnsServers: string[] | undefined): Record<string, string> {
  const dns = dnsServers?.length ? `  nameserver = [${dnsServers.map((s) => JSON.stringify(nameserver(s))).join(', ')}];\n` : ''
  return {
    'rspamd.conf': [
      '# Made by Veilmail at each start (lib/rspamd-server.ts); add your own rules in local.d/.',
      '.include "$CONFDIR/common.conf"',
      'options {',
      '  pidfile = "$RUNDIR/rspamd.pid";',
      '  .include "$CONFDIR/options.inc"',
      '  .include(try=true; priority=1,duplicate=merge) "$LOCAL_CONFDIR/local.d/options.inc"',
      '}',
      'logging {',
      '  type = "file";',
      '  filename = "$LOGDIR/rspamd.log";',
      '  level = "warning";',
      '}',
      'worker "normal" {',
      `  bind_socket = "127.0.0.1:${port}";`,
      // as many scanners as cores (rspamd's default): a 24 MB message keeps one busy for seconds
      '  .include "$CONFDIR/worker-normal.inc"',
      '}',
      '',
    ].join('\n'),
    // no history of scanned messages (Message-ID, client address, symbols) on disk, and one row in memory
    // (rspamd needs one: 0 crashes it at its start); its log, at `warning`, has no line per message
    'local.d/options.inc': `history_rows = 1;\nhistory_file = "";\ndns {\n  timeout = 1s;\n  retransmits = 2;\n${dns}}\n`,
    'local.d/greylist.conf': 'enabled = false;\n',
    'local.d/ratelimit.conf': 'enabled = false;\n',
    'local.d/actions.conf': 'greylist = null;\n',
    // the public fuzzy servers: a lookup per message to a third party, and a stall without network
    'override.d/fuzzy_check.conf': 'enabled = false;\n',
  }
}

/**
 * An rspamd left running on this directory, stopped first: one whose `npm start` was killed, or the
 * workers of one whose main process was killed (they stay, holding the port). rspamd runs in a
 * process group of its own (its main process's pid), so the whole group is stopped.
 */
async function stopOrphan(pidFile: string): Promise<void> {
  let pid: number
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim())
  } catch {
    return
  }
  const signal = (sig: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, sig)
      return true
    } catch {
      return false
    }
  }
  if (!(pid > 0) || !signal(0)) return // nothing of that group is left
  // a main process still there must be rspamd's (a pid is not reused while its group lives on)
  if (isAlive(pid) && !(existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('rspamd'))) return
  signal('SIGTERM')
  for (let i = 0; i < 100 && signal(0); i++) await new Promise((r) => setTimeout(r, 100))
  signal('SIGKILL')
  for (let i = 0; i < 50 && signal(0); i++) await new Promise((r) => setTimeout(r, 100))
}

async function pong(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) })
    return res.ok && (await res.text()).trim() === 'pong'
  } catch {
    return false
  }
}

export async function startRspamd(options: RspamdOptions): Promise<RspamdServer> {
  const dir = path.resolve(options.dir)
  const binary = options.binary ?? RSPAMD_BINARY
  for (const sub of ['local.d', 'override.d', 'db', 'run']) mkdirSync(path.join(dir, sub), { recursive: true })
  const port = options.port ?? (await freePort())
  const files = { ...configFiles(port, options.dnsServers), ...Object.fromEntries(Object.entries(options.localConfig ?? {}).map(([name, text]) => [`local.d/${name}`, text])) }
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  // rspamd in the foreground (-f) writes no pid file: ours, for the next start to find an orphan
  const pidFile = path.join(dir, 'run', 'veilmail-rspamd.pid')
  await stopOrphan(pidFile)

  const vars = { CONFDIR: STOCK_CONFIG, LOCAL_CONFDIR: dir, DBDIR: path.join(dir, 'db'), RUNDIR: path.join(dir, 'run'), LOGDIR: dir }
  const args = ['-f', '-c', path.join(dir, 'rspamd.conf'), ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`])]
  // rspamd refuses to run its workers as root without a user to switch to; its files here are ours
  if (process.getuid?.() === 0) args.push('-i')
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
  if (child.pid) writeFileSync(pidFile, `${child.pid}\n`)
  let output = ''
  child.stderr.on('data', (chunk: Buffer) => { output = (output + chunk.toString('utf8')).slice(-4000) })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch {} }, 10_000)
    await exited
    clearTimeout(timer)
  }

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000)
  let gone = false
  void exited.then(() => { gone = true })
  for (;;) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((r) => setTimeout(r, 200))])
    if (failed) throw new Error(`rspamd did not start: ${failed.message}`)
    if (gone) {
      const log = existsSync(path.join(dir, 'rspamd.log')) ? readFileSync(path.join(dir, 'rspamd.log'), 'utf8') : ''
      const last = (output + log).trim().split('\n').slice(-3).join(' | ')
      throw new Error(`rspamd exited at its start (code ${child.exitCode}): ${last}`)
    }
    if (await pong(url)) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`rspamd did not answer ${url}/ping within ${(options.startTimeoutMs ?? 60_000) / 1000} s`)
    }
  }
  return { url, pid: child.pid!, exited, stop }
}

/** rspamd's version line (`rspamd --version`), or undefined when it does not run. */
export function rspamdVersion(binary = RSPAMD_BINARY): string | undefined {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 })
  return run.status === 0 ? run.stdout.trim().split('\n')[0] : undefined
}
