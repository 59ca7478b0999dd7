// Every outgoing message leaves through one transport: the relay at OUTBOUND_SMTP_URL over a
// pool of kept-open connections (a new SMTP connection costs a greeting delay, 100 ms with
// smtp-server), or in development the outbox, one `.eml` file per delivery under
// DATA_DIR/outbox. A relay's 5xx (except 503) is permanent; anything else is worth a retry.
import { createWriteStream, mkdirSync, renameSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import nodemailer from 'nodemailer'
import './data-stream-fast-path.ts'
import type { Config } from './config.ts'
import { refusedRecipients, replyLine, type RefusedRecipient, type RejectedErrors } from './refused-recipients.ts'

export interface OutgoingMessage {
  /** delivery id: the outbox file name, and what makes a retry overwrite rather than add */
  id: string
  /** envelope sender (RFC 5321 MAIL FROM), '' for the null sender */
  from: string
  /** envelope recipients (RCPT TO), one or several: one message to all of them */
  to: string | readonly string[]
  /** the message; a stream (a large forward read from the spool) is read once, as it is sent */
  raw: Buffer | Readable
}

export interface OutboundTransport {
  /** the recipients refused while the others took the message (none, or nothing, when all took it) */
  send(message: OutgoingMessage): Promise<RefusedRecipient[] | void>
  /** connects, greets and quits: whether the relay answers (absent for the outbox) */
  verify?(): Promise<void>
  close(): void
}

export class PermanentDeliveryError extends Error {
  readonly responseCode: number | undefined
  /** the relay's reply line, for the sender's own status view (never logged) */
  readonly response: string | undefined
  /** when the relay refused every recipient: each one with its reply */
  readonly refused: RefusedRecipient[]

  constructor(responseCode: number | undefined, response?: string, refused: RefusedRecipient[] = []) {
    super(`permanent failure ${responseCode ?? ''}`.trim())
    this.name = 'PermanentDeliveryError'
    this.responseCode = responseCode
    this.response = response
    this.refused = refused
  }
}

/**
 * The recipients of a send that failed because the server refused every one of them (nodemailer's
 * "all recipients were rejected", or a PermanentDeliveryError made of it); none for any other failure.
 */
export function everyRecipientRefused(error: unknown): RefusedRecipient[] {
  if (error instanceof PermanentDeliveryError) return error.refused
  const e = error as RejectedErrors & { code?: string }
  return e?.code === 'EENVELOPE' && Array.isArray(e.rejectedErrors) ? refusedRecipients(e) : []
}

/** The relay's reply as the owner's report shows it (control characters out, bounded). */
export function relayReason(error: PermanentDeliveryError): string {
  return replyLine(error.response ?? '', 300) || `Refused by the relay (${error.responseCode ?? 'no code'})`
}

export function createOutboundTransport(cfg: Pick<Config, 'outboundSmtpUrl' | 'dataDir' | 'outboundSmtpConnections'>): OutboundTransport {
  // OUTBOUND_SMTP_CONNECTIONS, by default as many as sends run at once (send-email runs four times DELIVERY_CONCURRENCY)
  return cfg.outboundSmtpUrl ? relayTransport(cfg.outboundSmtpUrl, cfg.outboundSmtpConnections) : outboxTransport(path.join(cfg.dataDir, 'outbox'))
}

/**
 * What nodemailer's pool reads of a message it sends (smtp-pool/pool-resource.js): the envelope,
 * the id for its log, and the bytes. The message is already whole (raw) and signed, so it goes to
 * the pool as it is: `sendMail` would first compile it into a MIME tree (address parsing, a
 * generated Message-ID, three streams piped into each other), which was half of the delivery
 * process's CPU for nodemailer per message.
 */
interface PoolMail {
  data: Record<string, never>
  message: { getEnvelope(): { from: string; to: string[] }; messageId(): string; getHeader(key: string): undefined; createReadStream(): Readable }
}
interface Pool { send(mail: PoolMail, callback: (error: Error | null, info?: Parameters<typeof refusedRecipients>[0]) => void): void }

function relayTransport(url: string, maxConnections: number): OutboundTransport {
  const transport = nodemailer.createTransport({
    url, pool: true, maxConnections, maxMessages: 500,
    connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000, logger: false,
  })
  const pool = transport.transporter as unknown as Pool
  return {
    async send(message) {
      const { raw } = message
      const envelope = { from: message.from, to: [message.to].flat() }
      // a Buffer is read anew each time the pool asks (it may ask again on another connection
      // when the first closed before a byte was read); a stream is read once
      const mail: PoolMail = {
        data: {},
        message: { getEnvelope: () => envelope, messageId: () => '', getHeader: () => undefined, createReadStream: () => (Buffer.isBuffer(raw) ? Readable.from([raw]) : raw) },
      }
      try {
        return await new Promise<RefusedRecipient[]>((resolve, reject) => pool.send(mail, (error, info) => (error ? reject(error) : resolve(refusedRecipients(info)))))
      } catch (error) {
        // a message that did not go is not read any further: its source (the spool) is let go
        if (!Buffer.isBuffer(raw)) raw.destroy()
        const e = error as { permanent?: boolean; responseCode?: number; response?: string }
        if (e.permanent) throw new PermanentDeliveryError(e.responseCode, e.response, everyRecipientRefused(error))
        throw error
      }
    },
    async verify() {
      await transport.verify()
    },
    close: () => transport.close(),
  }
}

function outboxTransport(dir: string): OutboundTransport {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return {
    async send(message) {
      // Return-Path and Delivered-To are what a final delivery adds (RFC 5321 §4.4): they show the envelope.
      const head = `Return-Path: <${message.from}>\r\nDelivered-To: ${[message.to].flat().join(', ')}\r\n`
      const file = path.join(dir, `${message.id}.eml`)
      const raw = message.raw
      await pipeline(Readable.from((async function* () {
        yield Buffer.from(head)
        yield* Buffer.isBuffer(raw) ? [raw] : raw
      })(), { objectMode: false }), createWriteStream(file + '.tmp', { mode: 0o600 }))
      renameSync(file + '.tmp', file)
    },
    close() {},
  }
}
