// A private Dovecot (Debian's dovecot-imapd) for the webmail suites: its own config, base_dir,
// state_dir, passwd-file users and maildirs in a temporary folder, IMAPS on a free loopback port
// with a certificate signed by a CA generated for the run. Outside CI a missing `dovecot` skips
// the suites that need it with a line naming the package; with CI=true it fails.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { ImapFlow } from 'imapflow'
import { freePort } from './free-port.ts'
import { saveTestCertificates, writeTestCertificates, type TestCertificates } from './test-certificates.ts'

export const DOVECOT = process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot'
export const DOVEADM = path.join(path.dirname(DOVECOT), '..', 'bin', 'doveadm')
const run = promisify(execFile)

/** True when the Dovecot suites can run; throws in CI when they cannot. */
export function dovecotAvailable(): boolean {
  if (existsSync(DOVECOT) && existsSync('/usr/bin/openssl')) return true
  if (process.env.CI === 'true') throw new Error(`${DOVECOT} (or openssl) is missing: apt-get install dovecot-imapd openssl`)
  console.warn(`skipping IMAP tests: ${DOVECOT} not found (Debian package: dovecot-imapd)`)
  return false
}

export interface DovecotOptions {
  /** false: CONDSTORE and QRESYNC are left out of the capabilities, as on servers without them */
  condstore?: boolean
  /** false: NOTIFY (RFC 5465) is left out of the capabilities, as on servers without it */
  notify?: boolean
  /**
   * Also accept SASL XOAUTH2 (as Outlook's IMAP does), each access token checked at this RFC 7662
   * introspection endpoint (Dovecot's oauth2 passdb): live, and for the user logging in.
   */
  oauth2IntrospectionUrl?: string
  /**
   * Also listen for plain IMAP on a free loopback port (`plainPort`), where Dovecot offers
   * STARTTLS (RFC 3501 §6.2.1); `ssl = required` refuses any login before the upgrade.
   */
  starttls?: boolean
  /** the server's key and certificate and their CA (made for this Dovecot when not given) */
  certificates?: TestCertificates
  /** false: no Trash folder (SPECIAL-USE \Trash) is made for the users, as on servers that leave it to the client */
  trash?: boolean
  /**
   * Dovecot's high-performance login mode (`service_count = 0`): one imap-login process serves many
   * connections, so the TLS session tickets it issued are taken back (RFC 8446 §2.2), as a provider's
   * fleet sharing its ticket keys does. In the default mode each connection gets a fresh login
   * process with keys of its own, and no session ever resumes.
   */
  sharedLogin?: boolean
}

export interface SeedMessage {
  raw: string | Buffer
  /** maildir flags letters (RFC-less maildir convention): S seen, F flagged, R answered, T deleted */
  flags?: string
  /** internal date, as the file's mtime */
  date?: Date
}

export interface Dovecot {
  host: string
  port: number
  /** the plain IMAP port offering STARTTLS, with the `starttls` option */
  plainPort?: number
  /** PEM of the CA that signed the server certificate (trust it like NODE_EXTRA_CA_CERTS would) */
  ca: string
  caFile: string
  /** the key, certificate and CA it serves, for another test server under the same CA (the hostile IMAP server) */
  certificates: TestCertificates
  dir: string
  /** Dovecot's log: a login line ends in `TLS` when the session was encrypted, `secured` for plaintext on loopback */
  logFile: string
  /** Adds a user (its own passwd-file) and returns its password. */
  addUser(user: string, password?: string): string
  /** Writes messages straight into the user's maildir (fast preloading; Dovecot indexes them on next access). */
  writeMessages(user: string, messages: SeedMessage[], folder?: string): void
  /** A separate IMAP client logged in as the user: "another mail client" in tests. */
  client(user: string): Promise<ImapFlow>
  /** APPENDs messages over IMAP; returns their UIDs. */
  append(user: string, messages: SeedMessage[], folder?: string): Promise<number[]>
  /** Gives the folder a new UIDVALIDITY (as after a server-side rebuild), through doveadm. */
  changeUidValidity(user: string, folder: string, uidValidity: number): Promise<void>
  /** Drops every IMAP connection of the user (doveadm kick), as a server restart or a network cut would. */
  kick(user: string): Promise<void>
  /** How many IMAP connections of the user are open now (doveadm who). */
  connections(user: string): Promise<number>
  /** What another IMAP client sees in a folder: each message's subject and its flags, sorted, without \Recent. */
  flags(user: string, folder?: string): Promise<Map<string, string[]>>
  /** Stops the server, its users and mail kept: its ports refuse every connection until `resume` (an outage). */
  pause(): Promise<void>
  /** Starts the paused server again on the same ports, with the same users and mail. */
  resume(): Promise<void>
  stop(): Promise<void>
}

// What Dovecot 2.3 announces after login, less CONDSTORE and QRESYNC (RFC 7162) and/or NOTIFY (RFC 5465).
function capabilitiesWithout(options: DovecotOptions): string {
  return ['IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS',
    'THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1',
    options.condstore === false ? '' : 'CONDSTORE QRESYNC',
    'ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE',
    'SAVEDATE LITERAL+', options.notify === false ? '' : 'NOTIFY', 'SPECIAL-USE'].filter(Boolean).join(' ')
}

function waitForPort(port: number, child: ChildProcess, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let tries = 0
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`dovecot exited with ${child.exitCode}: ${existsSync(log) ? readFileSync(log, 'utf8') : ''}`))
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => { socket.destroy(); resolve() })
      socket.once('error', () => {
        socket.destroy()
        if (++tries > 200) reject(new Error(`dovecot did not listen on ${port}`))
        else setTimeout(attempt, 50)
      })
    }
    attempt()
  })
}

export async function startDovecot(options: DovecotOptions = {}): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-dovecot-'))
  chmodSync(dir, 0o755) // Dovecot's auth and mail processes run as other users and read the users file
  for (const sub of ['run', 'state', 'mail']) mkdirSync(path.join(dir, sub))
  const certificates = options.certificates ?? (await writeTestCertificates(dir))
  if (options.certificates) saveTestCertificates(dir, certificates)
  const port = await freePort()
  let plainPort: number | undefined
  // two ports free a moment apart may be the same one
  while (options.starttls && (plainPort === undefined || plainPort === port)) plainPort = await freePort()
  const root = process.getuid?.() === 0
  // Dovecot refuses uid 0 for mail and for its login processes: as root, mail belongs to the
  // `dovecot` system user and logins run as `dovenull` (both made by the Debian package).
  const me = os.userInfo()
  const mailUser = root ? systemUser('dovecot') : { uid: me.uid, gid: me.gid, name: me.username }
  const loginUser = root ? 'dovenull' : me.username
  chownSync(path.join(dir, 'mail'), mailUser.uid, mailUser.gid)
  // one passwd-file per user (the path takes %u): a user added while Dovecot runs is a new file,
  // never a change to one Dovecot has already read
  const users = path.join(dir, 'users')
  mkdirSync(users)
  const log = path.join(dir, 'dovecot.log')
  const conf = path.join(dir, 'dovecot.conf')
  writeFileSync(conf, `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${log}
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <${dir}/cert.pem
ssl_key = <${dir}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login${options.oauth2IntrospectionUrl ? ' xoauth2' : ''}
default_internal_user = ${root ? 'dovecot' : me.username}
default_internal_group = ${root ? 'dovecot' : os.userInfo().username}
default_login_user = ${loginUser}
first_valid_uid = ${mailUser.uid}
mail_location = maildir:${dir}/mail/%u
mailbox_list_index = yes
${options.oauth2IntrospectionUrl ? `passdb {\n  driver = oauth2\n  mechanisms = xoauth2\n  args = ${dir}/oauth2.conf.ext\n}` : ''}
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${users}/%u
}
userdb {
  driver = passwd-file
  args = ${users}/%u
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = create
  }
${options.trash === false ? '' : `  mailbox Trash {
    special_use = \\Trash
    auto = create
  }
`}  mailbox Archive {
    special_use = \\Archive
    auto = create
  }
}
service imap-login {
${options.sharedLogin ? '  service_count = 0\n' : ''}  inet_listener imap {
    port = ${plainPort ?? 0}
  }
  inet_listener imaps {
    port = ${port}
    ssl = yes
  }
}
service stats {
  inet_listener http {
    port = 0
  }
}
${options.condstore === false || options.notify === false ? `protocol imap {\n  imap_capability = ${capabilitiesWithout(options)}\n}\n` : ''}
`)
  if (options.oauth2IntrospectionUrl) {
    // the token is POSTed as `token=…`; the answer's `username` must be the user logging in
    writeFileSync(path.join(dir, 'oauth2.conf.ext'), `introspection_mode = post\nintrospection_url = ${options.oauth2IntrospectionUrl}\n` +
      'username_attribute = username\nactive_attribute = active\nactive_value = true\n')
  }
  const ports = plainPort ? [port, plainPort] : [port]
  /** The server running, once it listens on every port. */
  const launch = async (): Promise<ChildProcess> => {
    const started = spawn(DOVECOT, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    started.stderr?.on('data', (chunk) => { stderr += chunk })
    for (const listening of ports) {
      await waitForPort(listening, started, log).catch((error) => { started.kill('SIGKILL'); throw new Error(`${error.message}\n${stderr}`) })
    }
    return started
  }
  /** Stops the server and waits for it to exit (its ports closed with it). */
  const halt = async (running: ChildProcess) => {
    if (running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGTERM')
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
  let child = await launch()
  const ca = certificates.ca
  const passwords = new Map<string, string>()

  const maildir = (user: string, folder: string) => path.join(dir, 'mail', user, folder === 'INBOX' ? '' : `.${folder.replaceAll('/', '.')}`)
  const own = (target: string) => {
    if (!root) return
    try {
      chownSync(target, mailUser.uid, mailUser.gid)
      if (statSync(target).isDirectory()) for (const entry of readdirSync(target)) own(path.join(target, entry))
    } catch (error) {
      // a running Dovecot renames its own temporary files (dovecot-uidlist.tmp) away meanwhile
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  let counter = 0

  const dovecot: Dovecot = {
    host: '127.0.0.1', port, plainPort, ca, caFile: path.join(dir, 'ca.pem'), certificates, dir, logFile: log,
    addUser(user, password = randomBytes(9).toString('base64url')) {
      if (!/^[\w.@+-]+$/.test(user)) throw new Error(`test user names are letters, digits and .@+-_: ${user}`)
      writeFileSync(path.join(users, user), `${user}:{PLAIN}${password}:${mailUser.uid}:${mailUser.gid}::${dir}/mail/${user}::\n`)
      passwords.set(user, password)
      return password
    },
    writeMessages(user, messages, folder = 'INBOX') {
      const base = maildir(user, folder)
      for (const sub of ['cur', 'new', 'tmp']) mkdirSync(path.join(base, sub), { recursive: true })
      for (const message of messages) {
        const date = message.date ?? new Date()
        const name = `${Math.floor(date.getTime() / 1000)}.M${++counter}P${process.pid}.veilmail-test`
        // cur/ with an info part: the message is not "recent" and carries its flags (maildir spec)
        const file = path.join(base, 'cur', `${name}:2,${[...(message.flags ?? '')].sort().join('')}`)
        writeFileSync(file, message.raw)
        // the file's mtime is the message's internal date in a maildir
        utimesSync(file, date, date)
      }
      own(path.join(dir, 'mail', user))
    },
    async client(user) {
      const password = passwords.get(user)
      if (password === undefined) throw new Error(`no Dovecot user ${user}`)
      const client = new ImapFlow({ host: '127.0.0.1', port, secure: true, auth: { user, pass: password }, logger: false, tls: { ca } })
      await client.connect()
      return client
    },
    async append(user, messages, folder = 'INBOX') {
      const client = await dovecot.client(user)
      try {
        const uids: number[] = []
        for (const message of messages) {
          const flags = [...(message.flags ?? '')].map((letter) => MAILDIR_FLAGS[letter]).filter(Boolean)
          const result = await client.append(folder, message.raw, flags, message.date)
          if (result && typeof result === 'object' && result.uid) uids.push(result.uid)
        }
        return uids
      } finally {
        await client.logout().catch(() => client.close())
      }
    },
    async changeUidValidity(user, folder, uidValidity) {
      await run(DOVEADM, ['-c', conf, 'mailbox', 'update', '-u', user, '--uid-validity', String(uidValidity), folder])
    },
    async kick(user) {
      await run(DOVEADM, ['-c', conf, 'kick', user])
    },
    async connections(user) {
      // "username  # proto (pids) (ips)", one line per user with the number of connections
      const { stdout } = await run(DOVEADM, ['-c', conf, 'who', user]).catch(() => ({ stdout: '' }))
      const line = stdout.split('\n').find((l) => l.split(/\s+/)[0] === user)
      return line ? Number(line.split(/\s+/)[1]) : 0
    },
    async flags(user, folder = 'INBOX') {
      const client = await dovecot.client(user)
      try {
        const lock = await client.getMailboxLock(folder, { readOnly: true })
        const view = new Map<string, string[]>()
        try {
          if (client.mailbox && client.mailbox.exists > 0) {
            for await (const m of client.fetch('1:*', { uid: true, flags: true, envelope: true })) {
              view.set(m.envelope?.subject ?? '', [...(m.flags ?? [])].filter((f) => f !== '\\Recent').sort())
            }
          }
        } finally {
          lock.release()
        }
        return view
      } finally {
        await client.logout()
      }
    },
    async pause() {
      await halt(child)
    },
    async resume() {
      child = await launch()
    },
    async stop() {
      await halt(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return dovecot
}

const MAILDIR_FLAGS: Record<string, string> = { S: '\\Seen', F: '\\Flagged', R: '\\Answered', T: '\\Deleted', D: '\\Draft' }

function systemUser(name: string): { uid: number; gid: number; name: string } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))
  if (!line) throw new Error(`system user ${name} is missing (it comes with the dovecot-core package)`)
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid), name }
}
