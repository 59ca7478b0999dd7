// A mailbox provider's SMTP submission server for the send-as-mailbox tests: smtp-server with
// AUTH (PLAIN and LOGIN against a table of users, XOAUTH2 against a table of access tokens), on
// implicit TLS or STARTTLS (required before AUTH) with the test CA's certificate. It records each
// message with the user who logged in and lets a test wait for it (events, not sleeps).
import { EventEmitter } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import type { TestCertificates } from './test-certificates.ts'

export interface SubmittedMessage {
  /** the user the client logged in as */
  user: string
  /** PLAIN, LOGIN or XOAUTH2 */
  method: string
  from: string
  to: string[]
  raw: Buffer
  /** the session was encrypted when AUTH was sent */
  secure: boolean
}

export interface MailboxSmtpStandIn extends EventEmitter {
  host: string
  port: number
  security: 'tls' | 'starttls'
  messages: SubmittedMessage[]
  /** logins refused (user name as sent), in order */
  refusedLogins: string[]
  /** user → password accepted by PLAIN and LOGIN */
  users: Map<string, string>
  /** access token → user accepted by XOAUTH2 */
  tokens: Map<string, string>
  /** reply codes for RCPT TO of given (lower-case) recipients, e.g. an address the provider knows is gone */
  refuse: Map<string, number>
  close(): Promise<void>
}

export async function startMailboxSmtp(certificates: TestCertificates, security: 'tls' | 'starttls' = 'tls'): Promise<MailboxSmtpStandIn> {
  const standIn = new EventEmitter() as MailboxSmtpStandIn
  standIn.messages = []
  standIn.refusedLogins = []
  standIn.refuse = new Map()
  standIn.users = new Map()
  standIn.tokens = new Map()
  standIn.security = security
  const server = new SMTPServer({
    secure: security === 'tls',
    key: certificates.key,
    cert: certificates.cert,
    authMethods: ['PLAIN', 'LOGIN', 'XOAUTH2'],
    // no AUTH before STARTTLS, as every provider's submission port
    allowInsecureAuth: false,
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 100,
    onAuth(auth, session, callback) {
      const user = auth.username ?? ''
      const ok = auth.method === 'XOAUTH2'
        ? standIn.tokens.get(auth.accessToken ?? '') === user
        : standIn.users.has(user) && auth.password === standIn.users.get(user)
      if (!ok) {
        standIn.refusedLogins.push(user)
        standIn.emit('refused')
        if (auth.method === 'XOAUTH2') return callback(null, { data: { status: '401', schemes: 'bearer', scope: 'https://outlook.office.com/SMTP.Send' } })
        return callback(Object.assign(new Error('5.7.8 Username and Password not accepted'), { responseCode: 535 }))
      }
      callback(null, { user: { name: user, method: auth.method, secure: session.secure } })
    },
    onRcptTo(address, _session, callback) {
      const refused = standIn.refuse.get(address.address.toLowerCase())
      if (refused) return callback(Object.assign(new Error(`5.1.1 <${address.address}>: no such user`), { responseCode: refused }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const who = session.user as unknown as { name: string; method: string; secure: boolean }
        standIn.messages.push({
          user: who.name, method: who.method, secure: who.secure,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks),
        })
        callback()
        standIn.emit('message')
      })
    },
  })
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  standIn.host = '127.0.0.1'
  standIn.port = (server.server.address() as AddressInfo).port
  standIn.close = () => new Promise((resolve) => server.close(() => resolve()))
  return standIn
}
