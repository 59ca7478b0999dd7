// The decision on a received message, once DATA is complete: loops refused, senders
// authenticated, DMARC p=reject failures refused, replies through reverse aliases allowed only
// from the alias owner's own authenticated mailbox, then the message spooled.
import { domainOf, sameAddress } from '../../lib/mail-address.ts'
import type { DnsResolver } from '../../lib/dns-resolver.ts'
import { checkAuthentication, type AuthOutcome } from './mx-auth.ts'
import { ownerMailboxes, type Recipient } from '../mail/mx-recipients.ts'
import type { Spooler } from './mx-spool.ts'
import { LOOP_HEADER, type LoopTokens } from '../mail/loop-token.ts'
import { fieldValue, firstValue, splitMessage, utf8 } from '../mail/raw-message.ts'
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

export async function acceptMessage(deps: AcceptDeps, raw: Buffer, tx: Transaction): Promise<string> {
  const { headers } = splitMessage(raw)
  if (headers.filter((h) => h.key === 'received').length > MAX_RECEIVED) throw replies.loop()
  const loopValues = new Set(headers.filter((h) => h.key === LOOP_HEADER.toLowerCase()).map(fieldValue))
  let recipients = tx.recipients.filter((r) => !(r.kind === 'alias' && loopValues.has(deps.loopTokens.tokenFor(r.alias.id))))
  if (recipients.length === 0) throw replies.loop()

  const active = recipients.filter((r) => r.kind === 'alias' || r.kind === 'reverse' || r.kind === 'operator')
  if (active.length) {
    const auth = await checkAuthentication(raw, {
      ip: tx.remoteAddress, helo: tx.helo, sender: tx.mailFrom, mta: deps.mxHostname, resolver: deps.resolver, timeoutMs: deps.dnsTimeoutMs * 4,
    })
    if (auth.dmarcReject) throw replies.dmarcReject()
    const from = parseMailboxes(utf8(firstValue(headers, 'from') ?? ''))
    for (const r of active) if (r.kind === 'reverse') checkReply(r, from.length === 1 ? from[0].address : undefined, auth)
    const { dmarcReject: _, ...summary } = auth
    const id = await deps.spool(recipients, { raw, meta: {
      mailFrom: tx.mailFrom, remoteAddress: tx.remoteAddress, helo: tx.helo, secure: tx.secure, receivedAt: new Date().toISOString(), auth: summary,
    } })
    return `2.0.0 Ok: queued as ${id}`
  }
  await deps.spool(recipients) // paused aliases: counted as dropped, never read or stored
  return '2.0.0 Ok'
}
