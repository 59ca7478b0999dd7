// The decision on a received message: loops refused, DMARC p=reject failures refused, replies
// through reverse aliases allowed only from the alias owner's own authenticated mailbox, then the
// message spooled. The message is never held whole (docs/mail-flow.md, "Streaming"): while DATA
// streams in, its bytes go to the spool writer (sealed chunks in a transaction not yet committed)
// and, when its result can change the answer, to the authentication check (`sessionCheck`); only
// the header part is kept, which is all the decision reads. A loop seen in the header stops both at once.
import { once } from 'node:events'
import { PassThrough, type Readable } from 'node:stream'
import { domainOf, sameAddress } from '../../lib/mail-address.ts'
import type { DnsResolver } from '../../lib/dns-resolver.ts'
import type { AuthSummary } from '../mail/spool-codec.ts'
import { authorDomainOf, checkAuthentication, enforcingDmarcPolicy, type AuthOutcome } from '../mail/message-auth.ts'
import { ownerMailboxes, type Recipient } from '../mail/mx-recipients.ts'
import type { Spooler } from './mx-spool.ts'
import { LOOP_HEADER, type LoopTokens } from '../mail/loop-token.ts'
import { receiveMessage, type MessageLimits } from '../mail/mx-message.ts'
import { fieldValue, firstValue, utf8, type HeaderField } from '../../lib/raw-message.ts'
import { parseMailboxes } from '../../lib/mime-words.ts'
import { replies } from '../mail/smtp-reply.ts'
import { startSpamCheck, type SpamCheckResult, type SpamFilter } from './spam-check.ts'
import { applySenderBlocks } from '../mail/sender-blocks.ts'
import { MAX_REPORT_BYTES } from '../mail/delivery-report.ts'
import { errorFields, log } from '../../lib/log.ts'
import type { Db } from '../../db/client.ts'

/** RFC 5321 §6.3: more trace fields than any sane path has means a loop. */
const MAX_RECEIVED = 50

export interface AcceptDeps {
  spool: Spooler
  loopTokens: LoopTokens
  resolver: DnsResolver
  mxHostname: string
  dnsTimeoutMs: number
  /** rspamd (RSPAMD_URL); unset = mail is not scored */
  spamFilter?: SpamFilter
  /** where blocked senders are looked up (sender-blocks.ts) */
  sql: Db
  /** a delivery report to forwards' SRS addresses with these bounce tags (reported-bounces.ts); unset = discarded unread */
  reports?: (tags: string[], raw: Buffer) => Promise<unknown>
}

export interface Transaction {
  mailFrom: string
  remoteAddress: string
  helo: string
  secure: boolean
  recipients: Recipient[]
  /** the RCPT addresses as given, for the spam filter */
  rcptTo?: string[]
  session?: string
}

const aligned = (a: string, b: string) => a === b || a.endsWith('.' + b) || b.endsWith('.' + a)

/**
 * A reply must come from one of the alias's recipients (envelope and From) and, when the
 * sender's domain publishes SPF or signs with DKIM, pass one of them.
 */
function soleAuthor(headers: HeaderField[]): string | undefined {
  const from = parseMailboxes(utf8(firstValue(headers, 'from') ?? ''))
  return from.length === 1 ? from[0].address : undefined
}

function checkReply(r: Extract<Recipient, { kind: 'reverse' }>, from: string | undefined, auth: AuthOutcome): void {
  const owners = ownerMailboxes(r.alias)
  if (!from || !owners.some((m) => sameAddress(m, from))) throw replies.replyNotAuthenticated()
  const domain = domainOf(from)
  if (auth.spf === 'pass' || auth.dkimPassDomains.some((d) => aligned(d, domain))) return
  if (auth.spf === 'temperror' || auth.dkim === 'temperror') throw replies.authTempFail()
  // Published means an SPF record, or a DKIM key that a signature of the domain failed against.
  const dkimPublished = auth.dkimFailDomains.some((d) => aligned(d, domain))
  if (dkimPublished || !['none', 'neutral'].includes(auth.spf)) throw replies.replyNotAuthenticated()
}

const isActive = (r: Recipient) => r.kind === 'alias' || r.kind === 'reverse' || r.kind === 'operator'

/** The recipients this message may still go to: none when it looped (too many hops, or it came back from one of our forwards). */
function routeOf(deps: AcceptDeps, headers: HeaderField[], recipients: Recipient[]): Recipient[] {
  if (headers.filter((h) => h.key === 'received').length > MAX_RECEIVED) return []
  const loopValues = new Set(headers.filter((h) => h.key === LOOP_HEADER.toLowerCase()).map(fieldValue))
  return recipients.filter((r) => !(r.kind === 'alias' && loopValues.has(deps.loopTokens.tokenFor(r.alias.id))))
}

const fromFields = (headers: HeaderField[]) => headers.filter((h) => h.key === 'from').map((h) => utf8(fieldValue(h)))

/**
 * The authentication check of one message, in the session only when its result can change the
 * answer (workers/mail/message-auth.ts): at once for a reply through a reverse alias; otherwise the
 * header part is held until the author domain's DMARC policy is known (a cached lookup), and the
 * check runs only when that policy is enforcing. Left out, it runs at delivery, from the spool.
 */
function sessionCheck(deps: AcceptDeps, tx: Transaction) {
  let input: PassThrough | undefined
  let result: Promise<AuthOutcome> | undefined
  // once the check has its answer (or failed) it reads no more: what it is not fed can not pile up
  let reading = false
  let settled: Promise<void> | undefined
  /** the bytes received before the decision; undefined once it is made */
  let held: Buffer[] | undefined = []
  let decision: Promise<boolean> | undefined
  const options = { ip: tx.remoteAddress, helo: tx.helo, sender: tx.mailFrom, mta: deps.mxHostname, resolver: deps.resolver, timeoutMs: deps.dnsTimeoutMs * 4 }
  const start = () => {
    input = new PassThrough()
    result = checkAuthentication(input, options)
    reading = true
    settled = result.then(() => { reading = false }, () => { reading = false })
  }
  const feed = async (data: Buffer) => {
    if (input && reading && !input.write(data)) await Promise.race([once(input, 'drain'), settled])
  }
  if (tx.recipients.some((r) => r.kind === 'reverse')) {
    held = undefined
    start()
  }
  return {
    /** the header part is complete: the policy lookup starts */
    headers(fields: HeaderField[]) {
      if (held) decision ??= enforcingDmarcPolicy(authorDomainOf(fromFields(fields)), deps.resolver)
    },
    async write(data: Buffer) {
      if (!held) return feed(data)
      held.push(data)
      if (!decision) return
      const enforcing = await decision
      const bytes = held
      held = undefined
      if (!enforcing) return
      start()
      for (const b of bytes) await feed(b)
    },
    /** the message is complete: the outcome, or undefined when the check is left to the delivery */
    async end(headers: HeaderField[]): Promise<AuthOutcome | undefined> {
      if (held) {
        // a message that is all header: the decision comes now, on the whole of it
        const enforcing = await (decision ??= enforcingDmarcPolicy(authorDomainOf(fromFields(headers)), deps.resolver))
        const bytes = held
        held = undefined
        return enforcing ? checkAuthentication(Buffer.concat(bytes), options) : undefined
      }
      input?.end()
      return result
    },
    stop() {
      held = undefined
      input?.destroy(new Error('message not received'))
    },
  }
}

export async function acceptMessage(deps: AcceptDeps, stream: Readable, tx: Transaction, limits: MessageLimits): Promise<string> {
  // Only mail for an active recipient is stored and authenticated; a paused alias's is counted, never read.
  const wanted = tx.recipients.some(isActive)
  const writer = wanted ? deps.spool.writer() : undefined
  const check = wanted ? sessionCheck(deps, tx) : undefined
  // scored as it streams in, beside the spool (workers/mx/spam-check.ts)
  const spam = wanted && deps.spamFilter ? startSpamCheck(deps.spamFilter, {
    remoteAddress: tx.remoteAddress, helo: tx.helo, mailFrom: tx.mailFrom, rcptTo: tx.rcptTo ?? [], mxHostname: deps.mxHostname,
  }, tx.session) : undefined
  // a delivery report to forwards' SRS addresses (issue 30): its first MAX_REPORT_BYTES, never stored
  const tags = deps.reports ? [...new Set(tx.recipients.flatMap((r) => (r.kind === 'bounce' && r.tag ? [r.tag] : [])))] : []
  const report = tags.length ? cappedBytes(MAX_REPORT_BYTES) : undefined
  try {
    const { headers } = await receiveMessage(stream, limits, {
      headers(fields) {
        if (routeOf(deps, fields, tx.recipients).some(isActive)) {
          check?.headers(fields)
          return true
        }
        // nothing to store: the connection and the check are let go now, not after the rest of DATA
        void writer?.abort()
        check?.stop()
        spam?.stop()
        return report !== undefined
      },
      async write(data) {
        report?.push(data)
        await Promise.all([writer?.write(data), spam?.write(data)])
        await check?.write(data)
      },
    })
    if (report) await takeReport(deps, tags, report.bytes())
    const routed = routeOf(deps, headers, tx.recipients)
    if (routed.length === 0) throw replies.loop()
    // blocked senders (issue 30): counted, refused or dropped unread
    const recipients = await applySenderBlocks(deps.sql, routed, headers)
    if (!recipients.some(isActive)) {
      check?.stop()
      spam?.stop()
      await writer?.abort()
      await deps.spool(recipients) // paused aliases: counted as dropped, never read or stored
      return '2.0.0 Ok'
    }
    const [outcome, scored] = await Promise.all([check!.end(headers), spam?.end()])
    if (outcome?.dmarcReject) throw replies.dmarcReject()
    const verdict = scored && 'verdict' in scored ? scored : undefined
    if (verdict?.decision === 'refuse') throw replies.spam()
    if (verdict?.decision === 'defer') throw replies.spamTryLater()
    // a reply's check always ran in the session (sessionCheck)
    for (const r of recipients) if (r.kind === 'reverse') checkReply(r, soleAuthor(headers), outcome!)
    const id = await writer!.commit(spamRouted(recipients, scored), {
      mailFrom: tx.mailFrom, remoteAddress: tx.remoteAddress, helo: tx.helo, secure: tx.secure, receivedAt: new Date().toISOString(),
      ...(outcome ? { auth: summaryOf(outcome) } : {}),
      ...(verdict ? { spam: verdict.verdict } : {}),
    })
    // undefined: every recipient dropped it as spam (counted, nothing stored)
    return id ? `2.0.0 Ok: queued as ${id}` : '2.0.0 Ok'
  } catch (error) {
    // refused, or the client went away mid-DATA: nothing of the message is kept
    check?.stop()
    spam?.stop()
    await writer?.abort()
    throw error
  }
}

/** Spam to an alias that drops it (its spam handling 'drop') goes nowhere and is counted; the other recipients get it tagged. */
function spamRouted(recipients: Recipient[], scored: SpamCheckResult | undefined): Recipient[] {
  if (!scored || !('verdict' in scored) || !scored.verdict.spam) return recipients
  return recipients.map((r) => (r.kind === 'alias' && r.alias.spamHandling === 'drop' ? { kind: 'spam', alias: r.alias } : r))
}

function summaryOf({ dmarcReject: _, ...summary }: AuthOutcome): AuthSummary {
  return summary
}

/** The first `max` bytes of what is pushed; the rest is let go. */
function cappedBytes(max: number) {
  const chunks: Buffer[] = []
  let size = 0
  return {
    push(data: Buffer) {
      if (size >= max) return
      chunks.push(data.subarray(0, max - size))
      size += Math.min(data.length, max - size)
    },
    bytes: () => Buffer.concat(chunks, size),
  }
}

/** A report that can not be read or recorded is logged, never answered with an error: the sender can do nothing about it. */
async function takeReport(deps: AcceptDeps, tags: string[], raw: Buffer): Promise<void> {
  try {
    await deps.reports!(tags, raw)
  } catch (error) {
    log.error('mx.delivery_report_failed', errorFields(error))
  }
}
