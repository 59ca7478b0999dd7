// AUTH before STARTTLS on port 587 is answered `538 5.7.11 Encryption required` (RFC 4954 §6 and
// §4: "538 5.7.11 Encryption required for requested authentication mechanism"; RFC 5248 registers
// 5.7.11). The plain session does not offer AUTH (onConnect disables it, so EHLO leaves it out and
// a client never sends a password it could not protect), and smtp-server answers a disabled
// command `500 Error: command not recognized`, which tells a client nothing. We replace that one
// step, as workers/mx/mx-greeting.ts does (why a prototype replacement: docs/decisions/0012-mx-greeting.md):
// only servers that set the option get it, and the answer still counts as an unusable command
// (ten of them close the session with 421, as smtp-server does for unrecognized commands).
// smtp-server must keep the shape we rely on: checked at import.
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js'
import { expectLibraryShape } from '../../lib/library-shape.ts'

/** Where the switch is kept on the server's options (smtp-server passes unknown options through). */
export const AUTH_NEEDS_TLS_OPTION = 'veilmailAuthNeedsTls'

type Callback = (() => void) | undefined
interface Internals {
  _server: { options: Record<string, unknown>; _closeTimeout?: unknown }
  secure: boolean
  _ready: boolean
  _upgrading?: boolean
  _nextHandler: unknown
  _unrecognizedCommands: number
  send(code: number, text: string, context?: string | false): void
  _whenWritable(next: () => void): void
  _onCommand(command: Buffer | string, callback: Callback): void
}

const proto = SMTPConnection.prototype as unknown as Internals
const smtpServerOnCommand = proto._onCommand
expectLibraryShape("smtp-server's SMTPConnection._onCommand", smtpServerOnCommand as never, ['this._upgrading', 'this._nextHandler', 'this._isSupported(commandName)', 'this._unrecognizedCommands >= 10', "'Error: too many unrecognized commands'"],
  'workers/submission/auth-needs-tls.ts', { target: proto, names: ['send', '_whenWritable'] })

proto._onCommand = function onCommand(this: Internals, command, callback) {
  const plainAuth = this._server.options[AUTH_NEEDS_TLS_OPTION] === true && !this.secure && !this._upgrading && this._ready &&
    !this._nextHandler && !this._server._closeTimeout && /^AUTH(?:\s|$)/i.test((command ?? '').toString())
  if (!plainAuth) return smtpServerOnCommand.call(this, command, callback)
  // counted as smtp-server counts a command it cannot run, with its words at the tenth
  if (++this._unrecognizedCommands >= 10) return this.send(421, 'Error: too many unrecognized commands', 'AUTH')
  this.send(538, '5.7.11 Encryption required', false)
  setImmediate(() => this._whenWritable(callback ?? (() => false)))
}
