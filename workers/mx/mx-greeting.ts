// When the MX greets a new connection. smtp-server 3.21 always waits 100 ms before the 220
// greeting ("detecting early talkers", not an option), which caps 20 sessions at 200 new
// connections a second. We replace that one step: no pause by default (as Postfix, whose
// postscreen pregreet test is off unless configured), or MX_GREET_PAUSE_MS of listening before
// the greeting, after which a client that already talked (RFC 5321 §4.3.1: the client waits for
// the greeting) is refused with 554 and disconnected, like postscreen's pregreet test.
// Why a prototype replacement and not a patch or a fork: docs/decisions/0012-mx-greeting.md.
// smtp-server must keep the shape we replace: checked at import, so an upgrade that changes it
// stops the MX (and its tests) with a message instead of silently changing behaviour.
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js'
import type { SMTPServer } from 'smtp-server'
import { expectLibraryShape } from '../../lib/library-shape.ts'

/** Where the pause is kept on the server's options (smtp-server passes unknown options through). */
export const GREET_PAUSE_OPTION = 'veilmailGreetPauseMs'

interface Internals {
  _server: SMTPServer & { connections: Set<unknown>; options: Record<string, unknown> }
  _socket: import('node:net').Socket
  _parser: NodeJS.WritableStream | false
  _closing: boolean
  _closed: boolean
  name: string
  _setListeners(callback: () => void): void
  connectionReady(): void
  send(code: number, text: string, context?: string | false): void
  close(): void
}

const proto = SMTPConnection.prototype as unknown as Internals & { init(): void }
const smtpServerInit = proto.init
expectLibraryShape("smtp-server's SMTPConnection.init", smtpServerInit, ['this._setListeners(', 'maxClients', 'Too many connected clients', 'setTimeout(() => this.connectionReady(), 100)'],
  'workers/mx/mx-greeting.ts', { target: proto, names: ['_setListeners', 'connectionReady', 'send', 'close'] })

// Only servers that set the option (the MX) get this; any other smtp-server in the process
// (the submission server in tests, test relays) keeps smtp-server's own init.
proto.init = function init(this: Internals) {
  if (this._server.options[GREET_PAUSE_OPTION] === undefined) return smtpServerInit.call(this)
  this._setListeners(() => {
    // Unchanged from smtp-server: the connection cap is checked first.
    const options = this._server.options
    if (options.maxClients && this._server.connections.size > (options.maxClients as number)) {
      return this.send(421, this.name + ' Too many connected clients, try again in a moment', false)
    }
    const pauseMs = Number(options[GREET_PAUSE_OPTION] ?? 0)
    if (!pauseMs) return this.connectionReady()
    // Listen without parsing: smtp-server would answer each early command with its own 421.
    const socket = this._socket
    let talked = false
    const onData = () => { talked = true }
    if (this._parser) socket.unpipe(this._parser)
    socket.on('data', onData)
    socket.resume()
    setTimeout(() => {
      socket.off('data', onData)
      if (this._closing || this._closed) return
      if (talked) {
        this.send(554, `${this.name} 5.5.1 Protocol error: talked before the greeting`, false)
        return this.close()
      }
      if (this._parser) socket.pipe(this._parser)
      this.connectionReady()
    }, pauseMs).unref()
  })
}
