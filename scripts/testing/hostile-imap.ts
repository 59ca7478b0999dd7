// A small IMAP4rev1 server of our own (RFC 3501), scripted per test, that the sync worker can
// sync from when it behaves and that each test can turn hostile: bad bytes in names, flags and
// mail, literals bigger than RFC822.SIZE says, endless responses, silence.
//
//   const imap = await startHostileImap({ folders: { INBOX: [{ uid: 1, raw }] }, onCommand: silentAfter('UID FETCH') })
//   const client = await connectImap(imap.account, { allowPrivate: true, timeoutMs: 5000, ca: imap.ca })
//
// Built in: CAPABILITY, NOOP, CHECK, LOGOUT, STARTTLS, LOGIN, ID, ENABLE (CONDSTORE, QRESYNC,
// UTF8=ACCEPT when offered), NAMESPACE, LIST (with LIST-EXTENDED selection and RETURN (STATUS …
// SUBSCRIBED), RFC 5258/5819), LSUB, SELECT, EXAMINE, STATUS, CLOSE, UNSELECT, IDLE, [UID] FETCH
// (UID FLAGS RFC822.SIZE INTERNALDATE MODSEQ FAST RFC822 BODY[] BODY[HEADER] BODY[TEXT], PEEK,
// partial <p.n>, CHANGEDSINCE) and [UID] SEARCH (ALL, UID set, sequence set, flag keys, MODSEQ).
// Anything else is answered BAD. The mail never changes (no STORE, COPY, EXPUNGE) except by
// `deliver`. Names are sent quoted, or as literals when they hold a control character.
//
// `onCommand` hooks run before the built-in handling, in order; the first that returns true has
// handled the command (see hostile-imap-behaviours.ts for ready-made ones). Sends wait for the
// socket to drain, and a closed socket ends every send, so a hook that writes forever stops when
// the client goes. Whatever the client sends, the server answers BAD or hangs up; it never throws.
//
// The parts: hostile-imap-session.ts (one connection), hostile-imap-commands.ts and
// hostile-imap-fetch.ts (the built-in answers), hostile-imap-wire.ts (framing, tokens, encoding),
// hostile-imap-content.ts (message bytes, held or generated), hostile-imap-behaviours.ts.
// Under one CA with Dovecot: `startHostileImap({ tls: dovecot.certificates })`, and the sync's
// `imapCa: dovecot.ca` trusts both.
import net from 'node:net'
import tls from 'node:tls'
import type { MailState } from './hostile-imap-commands.ts'
import { Session, type Counters } from './hostile-imap-session.ts'
import type { ImapParam } from './hostile-imap-wire.ts'
import { makeTestCertificates, type TestCertificates } from './test-certificates.ts'

export interface HostileMessage {
  uid: number
  /** the message; leave out with `streamBytes` */
  raw?: Buffer | string
  flags?: string[]
  /** default 2026-01-01T00:00:00Z */
  internalDate?: Date
  /** MODSEQ (RFC 7162); default the UID */
  modseq?: number
  /** what RFC822.SIZE reports (default: the real size) */
  reportedSize?: number
  /** instead of raw: a message of this many bytes, generated as it is sent (the literal's {n} is the true length) */
  streamBytes?: number
  /** a partial FETCH gets the whole message, as servers that ignore <p.n> send it (Tencent Exmail) */
  ignorePartial?: boolean
}

export interface HostileCommand {
  tag: string
  /** upper case, without UID: FETCH for `UID FETCH` */
  name: string
  uid: boolean
  /** the arguments as sent, literals inlined */
  args: string
  /** the arguments tokenized: strings (atoms, quoted, literals) and lists */
  params: ImapParam[]
}

export type CommandHook = (command: HostileCommand, session: HostileSession) => boolean | Promise<boolean>

export interface HostileImapOptions {
  /** implicit TLS (default), or plain with STARTTLS offered and required before LOGIN */
  security?: 'tls' | 'starttls'
  /** login → password (default: DEFAULT_USER with DEFAULT_PASSWORD) */
  users?: Record<string, string>
  /** default { INBOX: [] }; names may be hostile (NUL, CR, non-ASCII) */
  folders?: Record<string, HostileMessage[]>
  uidValidity?: number
  /** offered besides IMAP4rev1 ID ENABLE IDLE NAMESPACE UNSELECT, e.g. CONDSTORE QRESYNC LIST-STATUS LITERAL+ */
  capabilities?: string[]
  /** false: no greeting ever (after the TLS handshake on implicit TLS); a command sent anyway is still answered */
  greet?: boolean
  /** the key, certificate and CA to serve (e.g. `dovecot.certificates`); made for this server when not given */
  tls?: TestCertificates
  onCommand?: CommandHook | CommandHook[]
}

export interface HostileSession {
  readonly id: number
  /** writes bytes as given (a line ends in CRLF) and waits until the socket drained; nothing once closed */
  send(data: string | Buffer): Promise<void>
  sendLine(line: string): Promise<void>
  /** sends every chunk with send(); stops (and ends the source) when the socket closes */
  stream(source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): Promise<void>
  user?: string
  /** the selected folder's name */
  selected?: string
  readonly closed: boolean
  /** destroys the socket */
  close(): void
}

export interface HostileImap {
  host: string
  port: number
  /** PEM of the CA the client must trust */
  ca: string
  /** the first user's credentials in connectImap's shape */
  account: { email: string; password: string; host: string; port: number; secure: boolean }
  /** TCP connections open now */
  openConnections(): number
  /** every command received, "UID FETCH 1:* (UID FLAGS)" (tag left out, literals inlined) */
  commandsSeen(): string[]
  /** bytes written to clients (before TLS) */
  bytesSent(): number
  /** commands being answered now (a hook that writes forever counts until its client goes) */
  commandsRunning(): number
  /** sends waiting for a socket to drain now: a client that stopped reading holds the server there */
  waitingForDrain(): number
  /** adds a message and announces it (* n EXISTS) to the sessions that have the folder selected */
  deliver(folder: string, message: HostileMessage): void
  /** destroys every connection and stops listening */
  close(): Promise<void>
}

export const DEFAULT_USER = 'user@hostile.test'
export const DEFAULT_PASSWORD = 'hostile-password'

export async function startHostileImap(options: HostileImapOptions = {}): Promise<HostileImap> {
  const certificates = options.tls ?? (await makeTestCertificates())
  const context = tls.createSecureContext({ key: certificates.key, cert: certificates.cert })
  const users = options.users ?? { [DEFAULT_USER]: DEFAULT_PASSWORD }
  const security = options.security ?? 'tls'
  const folders = new Map(Object.entries(options.folders ?? { INBOX: [] }).map(([name, messages]) => [name, [...messages].sort((a, b) => a.uid - b.uid)]))
  const extra = options.capabilities ?? []
  const mail: MailState = {
    folders, users, uidValidity: options.uidValidity ?? 1,
    capabilities: (session) => ['IMAP4rev1', ...(security === 'starttls' && !session.secure ? ['STARTTLS', 'LOGINDISABLED'] : []), 'ID', 'ENABLE', 'IDLE', 'NAMESPACE', 'UNSELECT', ...extra],
  }
  const hooks = options.onCommand === undefined ? [] : [options.onCommand].flat()
  const counters: Counters = { bytes: 0, running: 0, draining: 0, seen: [] }
  const sockets = new Set<net.Socket>()
  const sessions = new Set<Session>()
  let ids = 0
  const greet = (session: Session) => {
    if (options.greet !== false) session.enqueue(() => session.sendLine('* OK hostile-imap ready'))
  }

  const server = net.createServer((raw) => {
    sockets.add(raw)
    // each answer's lines go out at once, not held for the client's delayed ACK (Nagle)
    raw.setNoDelay(true)
    const session = new Session(++ids, raw, hooks, mail, context, counters)
    sessions.add(session)
    raw.on('close', () => {
      sockets.delete(raw)
      sessions.delete(session)
    })
    raw.on('error', () => raw.destroy())
    if (security === 'starttls') {
      session.attach(raw, false)
      greet(session)
      return
    }
    const secure = new tls.TLSSocket(raw, { isServer: true, secureContext: context })
    session.attach(secure, true)
    secure.once('secure', () => greet(session))
  })
  server.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as net.AddressInfo
  const [email, password] = Object.entries(users)[0] ?? ['', '']

  return {
    host: '127.0.0.1', port, ca: certificates.ca,
    account: { email, password, host: '127.0.0.1', port, secure: security === 'tls' },
    openConnections: () => sockets.size,
    commandsSeen: () => [...counters.seen],
    bytesSent: () => counters.bytes,
    commandsRunning: () => counters.running,
    waitingForDrain: () => counters.draining,
    deliver(folder, message) {
      const messages = folders.get(folder)
      if (!messages) throw new Error(`no folder ${folder} on the hostile server`)
      messages.push(message)
      messages.sort((a, b) => a.uid - b.uid)
      for (const session of sessions) {
        if (session.selected === folder) session.enqueue(() => session.sendLine(`* ${messages.length} EXISTS`))
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
