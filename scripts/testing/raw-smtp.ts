// A bare SMTP client on a socket, for what nodemailer will not send: exact command lines, bare
// CR or LF, broken MIME. Replies are read whole (multi-line replies end at "NNN ").
import { once } from 'node:events'
import net from 'node:net'
import tls from 'node:tls'

export class RawSmtp {
  #socket: net.Socket
  #buffer = ''
  #waiting: ((reply: string) => void) | undefined
  #failed: ((error: Error) => void) | undefined

  private constructor(socket: net.Socket) {
    this.#socket = socket
    this.#listen(socket)
  }

  #listen(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('latin1')
      this.#deliver()
    })
    socket.on('error', (error) => this.#failed?.(error))
  }

  /**
   * STARTTLS (RFC 3207); on 220 the session goes on over TLS (any certificate: a test). `options`
   * narrow what the client offers (ciphers, versions); a refused handshake rejects.
   */
  async startTls(options: tls.ConnectionOptions = {}): Promise<string> {
    const reply = await this.command('STARTTLS')
    if (!reply.startsWith('220')) return reply
    this.#socket.removeAllListeners('data')
    const secure = tls.connect({ ...options, socket: this.#socket, rejectUnauthorized: false })
    await once(secure, 'secureConnect')
    this.#socket = secure
    this.#listen(secure)
    return reply
  }

  static async connect(port: number): Promise<{ client: RawSmtp; greeting: string }> {
    const socket = net.connect(port, '127.0.0.1')
    const client = new RawSmtp(socket)
    const greeting = await client.#next()
    return { client, greeting }
  }

  #deliver() {
    const match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(this.#buffer)
    if (!match || !this.#waiting) return
    const end = match.index + match[0].length
    const reply = this.#buffer.slice(0, end).replace(/^\r\n/, '')
    this.#buffer = this.#buffer.slice(end)
    const resolve = this.#waiting
    this.#waiting = undefined
    resolve(reply.trimEnd())
  }

  #next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.#waiting = resolve
      this.#failed = reject
      this.#deliver()
    })
  }

  command(line: string): Promise<string> {
    const reply = this.#next()
    this.#socket.write(line + '\r\n')
    return reply
  }

  /** DATA with `content` sent as it is (dot-stuffed), then the terminating CRLF.CRLF. */
  async data(content: Buffer | string): Promise<string> {
    const go = await this.command('DATA')
    if (!go.startsWith('354')) return go
    const text = Buffer.isBuffer(content) ? content.toString('latin1') : content
    const stuffed = text.replace(/(^|\n)\./g, '$1..')
    const reply = this.#next()
    this.#socket.write(Buffer.from(stuffed + (stuffed.endsWith('\r\n') ? '' : '\r\n') + '.\r\n', 'latin1'))
    return reply
  }

  /** The negotiated protocol and cipher once STARTTLS is done (undefined on a plain session). */
  tlsCipher(): { protocol: string | null; name: string } | undefined {
    const socket = this.#socket
    return socket instanceof tls.TLSSocket ? { protocol: socket.getProtocol(), name: socket.getCipher().name } : undefined
  }

  close() {
    this.#socket.destroy()
  }
}
