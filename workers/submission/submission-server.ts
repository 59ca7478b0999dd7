// Message submission for sending from an alias (RFC 6409): port 587 with STARTTLS (RFC 3207)
// and AUTH only after TLS, port 465 with implicit TLS (RFC 8314). MAIL FROM and the From header
// must be the authenticated alias; DATA becomes email jobs in the outgoing queue.
import type { AddressInfo } from 'node:net'
import type { PgBoss } from 'pg-boss'
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server'
import type { Sql } from '../../db/client.ts'
import { hitRateLimit } from '../../db/rate-limits.ts'
import type { Config } from '../../lib/config.ts'
import { errorFields, log } from '../../lib/log.ts'
import { sameAddress } from '../../lib/mail-address.ts'
import { loadTlsCredentials, SERVER_TLS_PROFILE, type TlsCredentials } from '../../lib/tls.ts'
import { readMessage } from '../mail/mx-message.ts'
import { replies, SmtpReply } from '../mail/smtp-reply.ts'
import { authenticate, type SubmissionUser } from './submission-auth.ts'
import { AUTH_NEEDS_TLS_OPTION } from './auth-needs-tls.ts'
import { acceptSubmission } from './submission-accept.ts'
import { countRecipients } from '../../db/recipient-limits.ts'

/**
 * RCPTs one message may have (RFC 5321 §4.5.3.1.8: at least 100 must be taken); one more is
 * answered 452 4.5.3 (§4.5.3.1.10) and the session goes on, so the client can send the message
 * to the first 100 and the rest in another.
 */
export const MAX_SUBMISSION_RECIPIENTS = 100
/** Any deliverable mailbox out there: one @, a dotted domain, no spaces, brackets or line breaks. */
const OUTSIDE_ADDRESS = /^[^\s@<>"]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/

export interface SubmissionDeps { sql: Sql; boss: PgBoss; config: Config; tls?: TlsCredentials }

export interface SubmissionServers {
  listen(ports?: { starttls: number; tls: number }, host?: string): Promise<{ starttls: number; tls: number }>
  close(): Promise<void>
}

export function createSubmissionServers(deps: SubmissionDeps): SubmissionServers {
  const { sql, config } = deps
  const tls = deps.tls ?? loadTlsCredentials(config)
  const userOf = (session: SMTPServerSession) => session.user as unknown as SubmissionUser
  const answer = (error: unknown, context: string, session: SMTPServerSession): Error => {
    if (error instanceof SmtpReply) return error
    log.error(`submission.${context}_failed`, { session: session.id, ...errorFields(error) })
    return replies.tryLater()
  }

  const options = (secure: boolean): SMTPServerOptions => ({
    secure,
    name: config.smtpPublicHost,
    banner: 'Veilmail submission',
    key: tls.key,
    cert: tls.cert,
    ...SERVER_TLS_PROFILE,
    size: config.maxMessageBytes,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false, // the library's own lock, behind onConnect's
    disableReverseLookup: true,
    maxClients: 200,
    socketTimeout: 120_000,
    closeTimeout: 10_000,
    logger: false,
    // RFC 4954 §4 / RFC 3207 §4.2: a plain connection is not offered AUTH at all (EHLO lists it
    // only once TLS is up), so a client never sends a password it could not protect; an AUTH sent
    // anyway is answered 538 5.7.11 Encryption required (auth-needs-tls.ts).
    ...({ [AUTH_NEEDS_TLS_OPTION]: true } as object),
    onConnect(session, callback) {
      if (!session.secure) session.disabledCommands = ['AUTH']
      callback()
    },
    onSecure(_socket, session, callback) {
      session.disabledCommands = undefined
      callback()
    },
    onAuth(auth, session, callback) {
      authenticate(sql, config, session.remoteAddress, auth.username ?? '', auth.password ?? '').then(
        (user) => callback(null, { user: user as unknown as string }),
        (error) => callback(answer(error, 'auth', session)),
      )
    },
    onMailFrom(address, session, callback) {
      const user = userOf(session)
      if (!user) return callback(session.secure ? new SmtpReply(530, '5.7.0 Authentication required') : new SmtpReply(530, '5.7.0 Must issue a STARTTLS command first'))
      if (!sameAddress(address.address, user.address)) {
        return callback(new SmtpReply(553, '5.7.1 Sender address must be your alias address'))
      }
      const rule = config.rateLimits['smtp-send-credential']
      hitRateLimit(sql, 'smtp-send-credential', user.credentialId, rule.limit, rule.seconds).then(
        (hit) => callback(hit.allowed ? undefined : new SmtpReply(452, '4.7.0 Sending rate exceeded, try again later')),
        (error) => callback(answer(error, 'mail', session)),
      )
    },
    onRcptTo(address, session, callback) {
      if (!OUTSIDE_ADDRESS.test(address.address)) return callback(replies.badMailbox())
      // checked here rather than by smtp-server's maxRecipients to say the limit in the reply; a
      // recipient already taken is taken again (it replaces its entry), never counted twice
      if (tooManyRecipients(session, address.address)) return callback(new SmtpReply(452, `4.5.3 Too many recipients: at most ${MAX_SUBMISSION_RECIPIENTS} per message, send the rest in another`))
      // Each accepted recipient counts against the user's hourly and daily limits (RFC 5321
      // §4.5.3.1.10: 452 for too many recipients, enhanced code 4.5.3, RFC 3463).
      countRecipients(sql, config, userOf(session).userId).then(
        (limit) => callback(limit.allowed ? undefined : new SmtpReply(452, `4.5.3 ${limit.message}`)),
        (error) => callback(answer(error, 'rcpt', session)),
      )
    },
    onData(stream, session, callback) {
      const user = userOf(session)
      readMessage(stream, { maxBytes: config.maxMessageBytes, maxLineBytes: 64 * 1024 })
        .then((raw) => acceptSubmission(deps, user, session.envelope.rcptTo.map((r) => r.address), raw))
        .then(
          (ids) => {
            log.info('submission.queued', { session: session.id, jobs: ids.length })
            callback(null, `2.0.0 Queued as ${ids.join(' ')}`)
          },
          (error) => callback(answer(error, 'data', session)),
        )
    },
  })

  const starttls = new SMTPServer(options(false))
  const implicit = new SMTPServer(options(true))
  for (const server of [starttls, implicit]) server.on('error', (error) => log.warn('submission.connection_error', errorFields(error)))

  const listen = (server: SMTPServer, port: number, host: string) => new Promise<number>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(port, host, () => {
      server.server.off('error', reject)
      resolve((server.server.address() as AddressInfo).port)
    })
  })
  return {
    async listen(ports = { starttls: config.submission.port, tls: config.submission.tlsPort }, host = config.mx.host) {
      return { starttls: await listen(starttls, ports.starttls, host), tls: await listen(implicit, ports.tls, host) }
    },
    async close() {
      await Promise.all([starttls, implicit].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    },
  }
}

/** The message has its MAX_SUBMISSION_RECIPIENTS and `address` is not one of them. */
function tooManyRecipients(session: SMTPServerSession, address: string): boolean {
  const taken = session.envelope.rcptTo
  return taken.length >= MAX_SUBMISSION_RECIPIENTS && !taken.some((r) => r.address.toLowerCase() === address.toLowerCase())
}
