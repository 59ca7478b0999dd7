// Inbound SMTP for the alias domains (RFC 5321): STARTTLS (RFC 3207), SIZE (RFC 1870), no AUTH,
// PIPELINING and 8BITMIME from smtp-server. Caps: clients in total and per client address (421,
// RFC 5321 §4.2.3 "service not available"; counted for the whole port, workers/mx/mx-admission.ts),
// 100 recipients (RFC 5321 §4.5.3.1.8), command line length, data line length, header part size
// (the body streams to the spool, mx-accept.ts), idle time. The greeting comes at once
// (workers/mx/mx-greeting.ts). `createMxServer` is what tests and the `mx`
// process both start.
import type { AddressInfo } from 'node:net'
import type { PgBoss } from 'pg-boss'
import { SMTPServer, type SMTPServerSession } from 'smtp-server'
import type { Sql } from '../../db/client.ts'
import type { Config } from '../../lib/config.ts'
import { createDnsResolver, type DnsResolver } from '../../lib/dns-resolver.ts'
import { errorFields, log } from '../../lib/log.ts'
import { Srs } from '../mail/srs.ts'
import { loadTlsCredentials, SERVER_TLS_PROFILE, type TlsCredentials } from '../../lib/tls.ts'
import { findAliasesByAddress } from '../../db/alias-routing.ts'
import { coalesce } from '../../lib/coalesce.ts'
import { acceptMessage, type AcceptDeps } from './mx-accept.ts'
import { recordReportedBounces } from './reported-bounces.ts'
import { createSpamFilter } from './spam-check.ts'
import { leaveOnClose, localAdmission, type Admission } from './mx-admission.ts'
import { GREET_PAUSE_OPTION } from './mx-greeting.ts'
import { createSpooler } from './mx-spool.ts'
import { resolveRecipient, type Recipient } from '../mail/mx-recipients.ts'
import { LoopTokens } from '../mail/loop-token.ts'
import { SmtpReply, replies } from '../mail/smtp-reply.ts'
import { SpoolCodec } from '../mail/spool-codec.ts'
import { parseEnvelopeAddress } from '../../lib/mail-address.ts'

export const MAX_RECIPIENTS = 100
export const MAX_LINE_BYTES = 64 * 1024
/** The header part is held while the body streams to the spool; mailparser reads no more either (1 MiB). */
export const MAX_HEADER_BYTES = 1024 * 1024

export interface MxDeps {
  sql: Sql
  boss: PgBoss
  config: Config
  /** DNS for SPF/DKIM/DMARC; tests pass an offline stand-in */
  resolver?: DnsResolver
  tls?: TlsCredentials
  /** the connection caps' count; one of MX_PROCESSES asks the primary's (mx-cluster.ts) */
  admission?: Admission
}

export interface MxServer {
  listen(port?: number, host?: string): Promise<number>
  close(): Promise<void>
}

export function createMxServer(deps: MxDeps): MxServer {
  const cfg = deps.config
  const srs = new Srs(cfg.secretKey)
  const accept: AcceptDeps = {
    spool: createSpooler({ sql: deps.sql, boss: deps.boss, codec: new SpoolCodec(cfg.secretKey) }), loopTokens: new LoopTokens(cfg.secretKey),
    resolver: deps.resolver ?? createDnsResolver({ timeoutMs: cfg.dnsTimeoutMs, servers: cfg.dnsServers }), mxHostname: cfg.mxHostname, dnsTimeoutMs: cfg.dnsTimeoutMs,
    ...(cfg.rspamdUrl ? { spamFilter: createSpamFilter(cfg.rspamdUrl, cfg.rspamdTimeoutMs) } : {}),
    sql: deps.sql,
    reports: (tags, raw) => recordReportedBounces({ sql: deps.sql, boss: deps.boss, srs }, tags, raw),
  }
  // RCPTs of concurrent sessions share one alias lookup (lib/coalesce.ts)
  const findAlias = coalesce((addresses: { localPart: string; domain: string }[]) => findAliasesByAddress(deps.sql, addresses))
  const recipientDeps = {
    sql: deps.sql, mailDomains: cfg.mailDomains, srs, findAlias,
    firstUse: { secretKey: cfg.secretKey, limit: cfg.rateLimits['first-use-domain'] },
    linkSecret: cfg.secretKey,
    // read at each RCPT, as before the lookups were shared: the config object is the one source
    get operatorEmail() { return cfg.operatorEmail },
  }
  const transactions = new WeakMap<SMTPServerSession, Recipient[]>()
  const answer = (error: unknown, context: string, session: SMTPServerSession): Error => {
    if (error instanceof SmtpReply) return error
    log.error(`mx.${context}_failed`, { session: session.id, ...errorFields(error) })
    return replies.tryLater()
  }
  const tls = deps.tls ?? loadTlsCredentials(cfg)

  const server = new SMTPServer({
    name: cfg.mxHostname,
    banner: 'Veilmail ESMTP',
    key: tls.key,
    cert: tls.cert,
    ...SERVER_TLS_PROFILE,
    size: cfg.maxMessageBytes,
    authOptional: true,
    disabledCommands: ['AUTH'],
    disableReverseLookup: true,
    maxClients: cfg.mxMaxClients,
    maxRecipients: MAX_RECIPIENTS,
    maxCommandLength: 2048,
    socketTimeout: 120_000,
    closeTimeout: 10_000,
    logger: false,
    ...({ [GREET_PAUSE_OPTION]: cfg.mxGreetPauseMs } as object),

    onConnect(session, callback) {
      admission.admit(session.id, session.remoteAddress).then((refusal) => {
        if (!refusal) return callback()
        log.info('mx.refused_connection', { session: session.id, reason: refusal })
        callback(refusal === 'per_ip_cap' ? replies.tooManyFromYou(cfg.mxHostname) : replies.tooManyClients(cfg.mxHostname))
      }, (error) => callback(answer(error, 'connect', session)))
    },

    onMailFrom(address, session, callback) {
      transactions.set(session, [])
      // The null sender is fine (bounces); anything else must be a plain address (RFC 5321 §4.1.2).
      if (address.address && !parseEnvelopeAddress(address.address)) return callback(replies.badSender())
      callback()
    },

    onRcptTo(address, session, callback) {
      const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
      resolveRecipient(recipientDeps, address.address, mailFrom).then(
        (recipient) => {
          transactions.get(session)?.push(recipient)
          callback()
        },
        (error) => callback(answer(error, 'rcpt', session)),
      )
    },

    onData(stream, session, callback) {
      const started = performance.now()
      acceptMessage(accept, stream, {
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        remoteAddress: session.remoteAddress,
        helo: session.hostNameAppearsAs || '',
        secure: session.secure,
        recipients: transactions.get(session) ?? [],
        rcptTo: session.envelope.rcptTo.map((a) => a.address),
        session: session.id,
      }, { maxBytes: cfg.maxMessageBytes, maxLineBytes: MAX_LINE_BYTES, maxHeaderBytes: MAX_HEADER_BYTES })
        .then(
          (reply) => {
            // debug: a line per message is a write on the busiest path (metrics count it at any level)
            log.debug('mx.accepted', { session: session.id, recipients: session.envelope.rcptTo.length, ms: Math.round(performance.now() - started) })
            callback(null, reply)
          },
          (error) => {
            const reply = answer(error, 'data', session)
            log.info('mx.refused', { session: session.id, code: (reply as SmtpReply).responseCode })
            callback(reply)
          },
        )
    },
  })
  const admission = deps.admission ?? localAdmission({ total: cfg.mxMaxClients, perIp: cfg.mxMaxConnectionsPerIp })
  leaveOnClose(server, admission)
  server.on('error', (error) => log.warn('mx.connection_error', errorFields(error)))

  return {
    listen(port = cfg.mx.port, host = cfg.mx.host) {
      return new Promise((resolve, reject) => {
        server.server.once('error', reject)
        server.listen(port, host, () => {
          server.server.off('error', reject)
          resolve((server.server.address() as AddressInfo).port)
        })
      })
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
