// One client connection of the hostile IMAP server: commands framed and answered one after the
// other (hooks first, then the built-in answers), writes that wait for the socket to drain, the
// STARTTLS upgrade (RFC 3501 §6.2.1) and the end of IDLE (RFC 2177).
import type net from 'node:net'
import tls from 'node:tls'
import type { CommandHook, HostileCommand } from './hostile-imap.ts'
import { answerCommand, type MailState, type SessionState } from './hostile-imap-commands.ts'
import { ClientLimitError, CommandFramer, commandText, parseParams, type CommandPiece } from './hostile-imap-wire.ts'

/** Client input the server accepts: a line, and a command with its literals. */
const CLIENT_LIMITS = { maxLine: 1024 * 1024, maxCommand: 16 * 1024 * 1024 }

export interface Counters { bytes: number; running: number; draining: number; seen: string[] }

export class Session implements SessionState {
  readonly id: number
  user?: string
  selected?: string
  readOnly = false
  secure = false
  enabled = new Set<string>()
  idleTag?: string
  #socket: net.Socket
  #framer: CommandFramer
  #work: Promise<void> = Promise.resolve()
  #closed = false
  /** the client broke a limit: it was told BYE and nothing more is read */
  #hungUp = false
  readonly #counters: Counters
  readonly #hooks: CommandHook[]
  readonly #mail: MailState
  readonly #context: tls.SecureContext

  constructor(id: number, raw: net.Socket, hooks: CommandHook[], mail: MailState, context: tls.SecureContext, counters: Counters) {
    this.id = id
    this.#socket = raw
    this.#hooks = hooks
    this.#mail = mail
    this.#context = context
    this.#counters = counters
    this.#framer = this.#newFramer()
    raw.on('close', () => { this.#closed = true })
  }

  get closed() {
    return this.#closed || this.#socket.destroyed
  }

  /** Takes the socket (plain, or TLS over the plain one): reads commands from it, writes to it. */
  attach(socket: net.Socket, secure: boolean) {
    this.#socket = socket
    this.secure = secure
    socket.on('error', () => socket.destroy())
    socket.on('close', () => { this.#closed = true })
    socket.on('data', (chunk: Buffer) => this.#onData(chunk))
  }

  /** RFC 3501 §6.2.1: after the tagged OK, TLS starts on the same connection. */
  startTls() {
    const plain = this.#socket
    plain.removeAllListeners('data')
    this.#framer = this.#newFramer()
    this.attach(new tls.TLSSocket(plain, { isServer: true, secureContext: this.#context }), true)
  }

  /** Queues a task behind the commands in progress, so nothing is written into the middle of an answer. */
  enqueue(task: () => Promise<void>) {
    this.#work = this.#work.then(task).catch(() => this.close())
  }

  send(data: string | Buffer): Promise<void> {
    const socket = this.#socket
    if (this.closed) return Promise.resolve()
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    this.#counters.bytes += bytes.length
    if (socket.write(bytes)) return Promise.resolve()
    this.#counters.draining++
    return new Promise((resolve) => {
      const done = () => {
        socket.off('drain', done)
        socket.off('close', done)
        this.#counters.draining--
        resolve()
      }
      socket.on('drain', done)
      socket.on('close', done)
    })
  }

  sendLine(line: string) {
    return this.send(`${line}\r\n`)
  }

  async stream(source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>) {
    for await (const chunk of source) {
      if (this.closed) break
      await this.send(chunk)
    }
  }

  /** Ends the session after what was written (LOGOUT). */
  end() {
    this.#socket.end()
  }

  close() {
    this.#closed = true
    this.#socket.destroy()
  }

  #newFramer() {
    // a synchronizing literal is announced; the client waits for "+" (RFC 3501 §7.5)
    return new CommandFramer(CLIENT_LIMITS, () => this.enqueue(() => this.sendLine('+ Ready for literal data')))
  }

  #onData(chunk: Buffer) {
    if (this.#hungUp) return
    let commands: CommandPiece[][]
    try {
      commands = this.#framer.push(chunk)
    } catch (error) {
      this.#hungUp = true
      const reason = error instanceof ClientLimitError ? error.message : 'unreadable input'
      this.#socket.write(`* BYE ${reason}\r\n`, () => this.close())
      return
    }
    for (const pieces of commands) this.enqueue(() => this.#run(pieces))
  }

  async #run(pieces: CommandPiece[]) {
    if (this.idleTag !== undefined) {
      // RFC 2177 §3: the line after IDLE ends it
      const tag = this.idleTag
      this.idleTag = undefined
      const done = commandText(pieces).trim().toUpperCase() === 'DONE'
      await this.sendLine(done ? `${tag} OK IDLE terminated` : `${tag} BAD Expected DONE`)
      return
    }
    const params = parseParams(pieces)
    const tag = typeof params[0] === 'string' && /^[\x21-\x7e]+$/.test(params[0]) ? params[0] : '*'
    let name = typeof params[1] === 'string' ? params[1].toUpperCase() : ''
    let rest = params.slice(2)
    const uid = name === 'UID'
    if (uid) {
      name = typeof rest[0] === 'string' ? rest[0].toUpperCase() : ''
      rest = rest.slice(1)
    }
    const args = commandText(pieces).replace(/^\S*\s*(UID\s+)?\S*\s?/i, '')
    this.#counters.seen.push(`${uid ? 'UID ' : ''}${name}${args ? ` ${args}` : ''}`)
    const command: HostileCommand = { tag, name, uid, args, params: rest }
    this.#counters.running++
    try {
      // hooks see even a line that is no command: a silent server answers nothing at all
      for (const hook of this.#hooks) if (await hook(command, this)) return
      if (!name || tag === '*') await this.sendLine(`${tag} BAD Missing tag or command`)
      else await answerCommand(command, this, this.#mail)
    } catch {
      await this.sendLine(`${tag} BAD Internal error of the test server`)
    } finally {
      this.#counters.running--
    }
  }
}
