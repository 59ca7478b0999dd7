// The MX benchmark's yardstick (/work/shared/bench/anchors.md): Debian's Postfix doing Veilmail's
// forwarding job (a virtual alias to a relay), as a private instance from a config folder in a
// temporary directory, never touching the system's Postfix. Also runs Postfix's load tools,
// smtp-source and smtp-sink, for both sides of the comparison.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { treeCpuMs } from './process-cpu.ts'
import { isAlive } from '../../lib/process-alive.ts'

const run = promisify(execFile)

export function postfixAvailable(): boolean {
  try {
    readFileSync('/usr/sbin/smtp-source')
    readFileSync('/usr/sbin/postfix')
    return true
  } catch {
    return false
  }
}

export interface PrivatePostfix {
  /** CPU milliseconds of the instance so far: its master, the daemons it runs and those it reaped */
  cpuMs(): number
  stop(): Promise<void>
}

// Instances still running when the benchmark exits (Ctrl-C, a crash) are stopped on the way out.
const instances = new Set<string>()
process.once('exit', () => {
  for (const conf of instances) {
    try {
      execFileSync('/usr/sbin/postfix', ['-c', conf, 'stop'], { stdio: 'ignore' })
    } catch {}
  }
})

/** Starts Postfix on 127.0.0.1:port, forwarding shop@veilmail.test to me@real.test via the relay. */
export async function startPrivatePostfix(port: number, relayPort: number): Promise<PrivatePostfix> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-postfix-'))
  chmodSync(dir, 0o755) // Postfix's daemons run as the postfix user and must reach their queue
  const conf = path.join(dir, 'conf')
  for (const d of ['conf', 'queue', 'data']) mkdirSync(path.join(dir, d))
  const { uid, gid } = postfixIds()
  chownSync(path.join(dir, 'queue'), uid, gid)
  chownSync(path.join(dir, 'data'), uid, gid)
  writeFileSync(path.join(conf, 'virtual'), 'shop@veilmail.test me@real.test\n')
  writeFileSync(path.join(conf, 'main.cf'), `compatibility_level = 3.7
queue_directory = ${dir}/queue
data_directory = ${dir}/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = anchor.localdomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject
virtual_alias_domains = veilmail.test
virtual_alias_maps = texthash:${dir}/conf/virtual
relayhost = [127.0.0.1]:${relayPort}
smtp_tls_security_level = none
alias_maps =
local_recipient_maps =
maillog_file = ${dir}/maillog
maillog_file_prefixes = ${dir}
in_flow_delay = 0
smtpd_peername_lookup = no
smtp_connection_cache_on_demand = yes
default_destination_concurrency_limit = 20
`)
  // Debian's master.cf with our listener instead of port 25 and no chroot anywhere.
  const master = readFileSync('/etc/postfix/master.cf', 'utf8').split('\n').map((line) => {
    if (/^smtp\s+inet\s/.test(line)) return `127.0.0.1:${port} inet n - n - - smtpd`
    const f = line.split(/\s+/)
    if (!line.startsWith('#') && !/^\s/.test(line) && f.length >= 8) {
      f[4] = 'n'
      return f.join(' ')
    }
    return line
  })
  writeFileSync(path.join(conf, 'master.cf'), master.join('\n'))
  const masterPid = () => Number(readFileOr(path.join(dir, 'queue', 'pid', 'master.pid')).trim())
  const cpuMs = () => (masterPid() ? treeCpuMs(masterPid()) : NaN)
  const stop = async () => {
    await run('/usr/sbin/postfix', ['-c', conf, 'stop']).catch(() => {})
    instances.delete(conf)
    // master exits shortly after `stop`; its pid file tells whether it is gone.
    for (let i = 0; i < 100; i++) {
      const pid = masterPid()
      if (!pid || !isAlive(pid)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    instances.add(conf)
    await run('/usr/sbin/postfix', ['-c', conf, 'start'])
    await waitForPort(port)
  } catch (error) {
    const maillog = readFileOr(path.join(dir, 'maillog')).trim().split('\n').slice(-5).join('\n')
    await stop()
    throw new Error(`private Postfix did not start: ${(error as Error).message}\n${maillog}`)
  }
  return { cpuMs, stop }
}

function postfixIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postfix:'))
  if (!line) throw new Error('no postfix user (install Debian postfix)')
  const f = line.split(':')
  return { uid: Number(f[2]), gid: Number(f[3]) }
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}


export async function waitForPort(port: number, timeoutMs = 30_000): Promise<void> {
  const net = await import('node:net')
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1')
      s.once('connect', () => { s.destroy(); resolve(true) })
      s.once('error', () => resolve(false))
    })
    if (ok) return
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export interface Sink { exited: Promise<number>; process: ChildProcess }

/** smtp-sink on the relay port; it exits after `messages` messages. */
export async function startSink(port: number, messages: number): Promise<Sink> {
  const child = spawn('/usr/sbin/smtp-sink', ['-u', 'nobody', '-M', String(messages), `127.0.0.1:${port}`, '256'], { stdio: ['ignore', 'ignore', 'pipe'] })
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(performance.now())))
  await waitForPort(port)
  return { exited, process: child }
}

/** smtp-source: `messages` × `bytes` over `sessions` sessions; resolves with its run time in ms. */
export async function smtpSource(port: number, o: { messages: number; sessions: number; bytes: number; reuse: boolean }): Promise<number> {
  const args = [...(o.reuse ? ['-d'] : []), '-s', String(o.sessions), '-m', String(o.messages), '-l', String(o.bytes),
    '-f', 'sender@outside.test', '-t', 'shop@veilmail.test', `127.0.0.1:${port}`]
  const started = performance.now()
  const { stderr } = await run('/usr/sbin/smtp-source', args, { maxBuffer: 16 * 1024 * 1024 })
  if (stderr.trim()) process.stderr.write(`smtp-source: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}\n`)
  return performance.now() - started
}
