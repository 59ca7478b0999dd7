// The decision on a received message: loops refused, senders authenticated, DMARC p=reject
// failures refused, replies through reverse aliases allowed only from the alias owner's own
// authenticated mailbox, then the message spooled. The message is never held whole (docs/mail-flow.md,
// "Streaming"): while DATA streams in, its bytes go to the spool writer (sealed chunks in a transaction
// not yet committed) and to the authentication check; only the header part is kept, which is
// all the decision reads. A loop seen in the header stops both at once.
import { once } from 'node:events'
import { PassThrough, type Readable } from 'node:stream'
import { domainOf, sameAddress } from '../../lib/mail-address.ts'
import type { DnsResolver } from '../../lib/dns-resolver.ts'
import { checkAuthentication, type AuthOutcome } from './mx-auth.ts'
import { ownerMailboxes, type Recipient } from '../mail/mx-recipients.ts'
import type { Spooler } from './mx-spool.ts'
import { LOOP_HEADER, type LoopTokens } from '../mail/loop-token.ts'
import { receiveMessage, type MessageLimits } from '../mail/mx-message.ts'
import { fieldValue, firstValue, utf8, type HeaderField } from '../mail/raw-message.ts'
import { parseMailboxes } from '../mail/mime-words.ts'
import { replies } from '../mail/smtp-reply.ts'

/** RFC 5321 §6.3: more trace fields than any sane path has means a loop. */
const MAX_RECEIVED = 50

export interface AcceptDeps {
  spool: Spooler
  loopTokens: LoopTokens
  resolver: DnsResolver
  mxHostname: string
  dnsTimeoutMs: number
}

export interface Transaction {
  mailFrom: string
  remoteAddress: string
  helo: string
  secure: boolean
  recipients: Recipient[]
}

const aligned = (a: string, b: string) => a === b || a.endsWith('.' + b) || b.endsWith('.' + a)

/**
 * A reply must come from one of the alias's recipients (envelope and From) and, when the
 * sender's domain publishes SPF or signs with DKIM, pass one of them.
 */
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

export async function acceptMessage(deps: AcceptDeps, stream: Readable, tx: Transaction, limits: MessageLimits): Promise<string> {
  // Only mail for an active recipient is stored and authenticated; a paused alias's is counted, never read.
  const wanted = tx.recipients.some(isActive)
  const writer = wanted ? deps.spool.writer() : undefined
  const authInput = wanted ? new PassThrough() : undefined
  const auth = authInput && checkAuthentication(authInput, {
    ip: tx.remoteAddress, helo: tx.helo, sender: tx.mailFrom, mta: deps.mxHostname, resolver: deps.resolver, timeoutMs: deps.dnsTimeoutMs * 4,
  })
  // once the check has its answer (or failed) it reads no more: what it is not fed can not pile up
  let authReading = !!auth
  const authSettled = auth?.then(() => { authReading = false }, () => { authReading = false })
  try {
    const { headers } = await receiveMessage(stream, limits, {
      headers(fields) {
        if (routeOf(deps, fields, tx.recipients).some(isActive)) return true
        // nothing to store: the connection and the check are let go now, not after the rest of DATA
        void writer?.abort()
        authInput?.destroy(new Error('not stored'))
        return false
      },
      async write(data) {
        await writer?.write(data)
        if (authInput && authReading && !authInput.write(data)) await Promise.race([once(authInput, 'drain'), authSettled])
      },
    })
    authInput?.end()
    const recipients = routeOf(deps, headers, tx.recipients)
    if (recipients.length === 0) throw replies.loop()
    if (!recipients.some(isActive)) {
      await writer?.abort()
      await deps.spool(recipients) // paused aliases: counted as dropped, never read or stored
      return '2.0.0 Ok'
    }
    const outcome = await auth!
    if (outcome.dmarcReject) throw replies.dmarcReject()
    const from = parseMailboxes(utf8(firstValue(headers, 'from') ?? ''))
    for (const r of recipients) if (r.kind === 'reverse') checkReply(r, from.length === 1 ? from[0].address : undefined, outcome)
    const { dmarcReject: _, ...summary } = outcome
    const id = await writer!.commit(recipients, {
      mailFrom: tx.mailFrom, remoteAddress: tx.remoteAddress, helo: tx.helo, secure: tx.secure, receivedAt: new Date().toISOString(), auth: summary,
    })
    return `2.0.0 Ok: queued as ${id}`
  } catch (error) {
    // refused, or the client went away mid-DATA: nothing of the message is kept
    authInput?.destroy(new Error('message not received'))
    await writer?.abort()
    throw error
  }
}
