// Sending as a connected mailbox: one message through that account's own SMTP server (RFC 6409
// submission), logged in with the account's login: a password (AUTH PLAIN/LOGIN), or an Outlook
// account's OAuth2 access token (SASL XOAUTH2). Like the IMAP login (lib/imap-connect.ts): the
// host is resolved and refused when private (unless ALLOW_PRIVATE_NETWORKS), the socket goes to
// the address that was checked, TLS verifies the certificate for the name the user gave, and on a
// STARTTLS port the upgrade is required (RFC 3207): never a plaintext login. What the server sends
// is bounded in bytes and the whole conversation in time. Every failure becomes a MailboxSendError
// whose message is a sentence for the user; nothing here logs an address, host or secret.
import net from 'node:net'
import tls from 'node:tls'
import nodemailer from 'nodemailer'
import { TLS_CODES } from '../../lib/imap-connect.ts'
import { BlockedAddressError, resolvePublicAddress, type Lookup } from '../../lib/ssrf-guard.ts'
import type { SmtpServer } from '../../shared/mailbox-smtp-schemas.ts'
import { everyRecipientRefused } from '../../lib/outbound-transport.ts'
import { refusedRecipients, type RefusedRecipient } from '../../lib/refused-recipients.ts'

export type SmtpAuth = { user: string; pass: string } | { user: string; accessToken: string }

export interface MailboxSmtpOptions {
  allowPrivate: boolean
  /** connecting and each answer; the whole conversation may take four times as long */
  timeoutMs: number
  /** an extra trusted CA (PEM), added to the system's (tests) */
  ca?: string
  lookup?: Lookup
}

/** What a submission server may send while one message is sent: its replies are a few lines each. */
const MAX_SERVER_BYTES = 256 * 1024

export class MailboxSendError extends Error {
  override name = 'MailboxSendError'
  /** will not fix itself by waiting (a refused login, a refused recipient, a forbidden host): no retry */
  readonly permanent: boolean
  /** when the server refused every recipient: each one with its reply */
  readonly refused: RefusedRecipient[]
  constructor(message: string, permanent: boolean, refused: RefusedRecipient[] = []) {
    super(message)
    this.permanent = permanent
    this.refused = refused
  }
}

export async function sendThroughMailbox(server: SmtpServer, auth: SmtpAuth, message: { from: string; to: string[]; raw: Buffer }, options: MailboxSmtpOptions): Promise<RefusedRecipient[]> {
  let address: string
  try {
    address = (await resolvePublicAddress(server.host, { allowPrivate: options.allowPrivate, lookup: options.lookup })).address
  } catch (error) {
    if (error instanceof BlockedAddressError && /private|reserved/.test(error.message)) {
      throw new MailboxSendError('The SMTP server is on a private or local network address, which is not allowed.', true)
    }
    throw new MailboxSendError(`The SMTP server ${server.host} could not be found. Check the server name in the mailbox's sending settings.`, true)
  }
  const name = server.host.replace(/^\[|\]$/g, '')
  let overBudget = false
  let socket: net.Socket | undefined
  const deadline = setTimeout(() => socket?.destroy(), options.timeoutMs * 4)
  const transport = nodemailer.createTransport({
    host: name,
    port: server.port,
    secure: server.security === 'tls',
    // STARTTLS required on a submission port: a server that does not offer it gets no login
    requireTLS: server.security === 'starttls',
    ignoreTLS: false,
    auth: 'accessToken' in auth ? { type: 'OAuth2', user: auth.user, accessToken: auth.accessToken } : { user: auth.user, pass: auth.pass },
    tls: {
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
      ...(net.isIP(name) ? {} : { servername: name }),
      ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}),
      checkServerIdentity: (_host: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(name, cert),
    },
    // the socket goes to the address that was checked, and counts what the server sends
    getSocket: (_options, callback) => {
      const connection = net.connect({ host: address, port: server.port, timeout: options.timeoutMs })
      socket = connection
      connection.on('data', () => {
        if (connection.bytesRead <= MAX_SERVER_BYTES || overBudget) return
        overBudget = true
        connection.destroy()
      })
      connection.once('timeout', () => connection.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })))
      connection.once('connect', () => {
        connection.setTimeout(0)
        callback(null, { connection })
      })
      connection.once('error', (error) => callback(error))
    },
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs * 2,
    logger: false,
    debug: false,
  })
  try {
    // a recipient the server refuses while it takes the others is reported, never a reason to send again
    return refusedRecipients(await transport.sendMail({ envelope: { from: message.from, to: message.to }, raw: message.raw }))
  } catch (error) {
    if (overBudget) throw new MailboxSendError('The SMTP server sent far more than any answer needs, and the connection was closed. It will be tried again later.', false)
    throw classifySmtpError(error, server)
  } finally {
    clearTimeout(deadline)
    transport.close()
  }
}

/** Sorts nodemailer's errors (by code and reply code, never by the words of a server) into the user's sentence. */
export function classifySmtpError(error: unknown, server: SmtpServer): MailboxSendError {
  const e = error as { code?: string; responseCode?: number; response?: string; cause?: { code?: string } }
  const code = typeof e?.code === 'string' ? e.code : ''
  const causeCode = typeof e?.cause?.code === 'string' ? e.cause.code : ''
  if (code === 'EAUTH' || e?.responseCode === 535 || e?.responseCode === 534) {
    return new MailboxSendError(`The SMTP server ${server.host} refused the mailbox's login. Check the user name and password in the mailbox's sending settings (Gmail and Yahoo need an app password).`, true)
  }
  if (code === 'ETLS' || TLS_CODES.test(code) || TLS_CODES.test(causeCode)) {
    return new MailboxSendError(server.security === 'starttls'
      ? `The secure connection to the SMTP server failed on port ${server.port}: it did not offer STARTTLS, or its certificate could not be verified.`
      : 'The secure connection to the SMTP server failed: its certificate could not be verified.', true)
  }
  if ((code === 'EENVELOPE' || code === 'EMESSAGE' || code === 'EPROTOCOL') && typeof e.responseCode === 'number') {
    const reply = (e.response ?? '').replace(/[\r\n]+/g, ' ').slice(0, 300)
    return new MailboxSendError(`The SMTP server ${server.host} answered: ${reply}`, e.responseCode >= 500, everyRecipientRefused(error))
  }
  if (code === 'ECONNREFUSED' || causeCode === 'ECONNREFUSED') return new MailboxSendError(`The SMTP server refused the connection on port ${server.port}. It will be tried again; check the port and security setting.`, false)
  if (code === 'ETIMEDOUT' || causeCode === 'ETIMEDOUT') return new MailboxSendError('The SMTP server did not answer in time. It will be tried again.', false)
  return new MailboxSendError('The connection to the SMTP server was lost. It will be tried again.', false)
}
