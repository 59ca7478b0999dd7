// Queue `forward-email`: one inbound message to one of the alias's mailboxes, through the
// outbound transport, with the envelope sender rewritten by SRS on the alias domain, headers
// rewritten for anonymous replies, the body untouched, a DKIM signature of the alias domain and an
// ARC set of the service domain (lib/arc-chain.ts).
// When the owner has a default age key and the alias's switch is on, the content leaves
// encrypted to that key (encrypted-payload.ts, encrypted-mail.ts). A forward that fails for good
// is kept encrypted, or at least reported (keep-undelivered.ts). A target that has not confirmed
// it wants the mail gets nothing: the forward is held until it does (forward_targets); nor does
// one marked for its hard bounces in a row (target-bounce.ts), until it is re-enabled.
// A plain forward streams (docs/mail-flow.md, "Streaming"): the header part is read and rewritten, the body goes
// from the spool to the relay chunk by chunk (read once for the DKIM body hash, once to send).
// An encrypted forward needs the whole message in memory: age encrypts the readable copy and the
// original together (encrypted-payload.ts).
import { domainOf } from '../../lib/mail-address.ts'
import { errorFields, log } from '../../lib/log.ts'
import type { DeliveryAlias } from '../../db/alias-routing.ts'
import { findDefaultPublicKey } from '../../db/encryption-keys.ts'
import { getForwardTargetStates, type ForwardTargetState } from '../../db/forward-targets.ts'
import type { Payload } from '../../db/queues.ts'
import { queues } from '../../db/queues.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { abandonDelivery, runDelivery, type DeliveryContext } from './delivery-step.ts'
import type { DeliveryOutcome } from '../../db/delivery-finish.ts'
import { encryptedForward } from './encrypted-mail.ts'
import { encryptPayload } from './encrypted-payload.ts'
import { forwardHeaders } from './forward-headers.ts'
import { forwardLinks } from './forward-links.ts'
import { parseMailboxes } from '../../lib/mime-words.ts'
import { srsDomain } from '../mail/srs-domain.ts'
import { PermanentDeliveryError, relayReason } from '../../lib/outbound-transport.ts'
import { fieldValue, firstValue, joinMessage, messageIds, splitMessage, utf8, type HeaderField } from '../../lib/raw-message.ts'
import { exhaustedReason, keepUndelivered } from './keep-undelivered.ts'
import { isHardBounce, recordBounce } from './target-bounce.ts'
import { clearTargetBounces } from '../../db/target-bounces.ts'
import type { SpoolMeta } from '../mail/spool-codec.ts'

const MAX_CONTACTS = 50

/**
 * The header fields of the forward: From, Reply-To and the other contacts through reverse aliases,
 * our trace and loop fields, and the signed links (forward-links.ts); `contactId`: the author's
 * contact, whose forwards the delivery counts.
 */
export async function forwardHeadersOf(deps: DeliveryDeps, alias: DeliveryAlias, spoolId: string, headers: HeaderField[], meta: SpoolMeta, blockLink = true): Promise<{ headers: HeaderField[]; contactId?: string }> {
  const ours = (address: string) => deps.config.mailDomains.includes(domainOf(address))
  const author = parseMailboxes(utf8(firstValue(headers, 'from') ?? ''))[0]
  const replyTo = parseMailboxes(utf8(firstValue(headers, 'reply-to') ?? ''), 10).filter((m) => !ours(m.address))
  const others = [...parseMailboxes(utf8(firstValue(headers, 'to') ?? '')), ...parseMailboxes(utf8(firstValue(headers, 'cc') ?? ''))]
    .filter((m) => !ours(m.address)).slice(0, MAX_CONTACTS)
  const replyTargets = replyTo.length ? replyTo : author && !ours(author.address) ? [author] : []
  const known = await deps.reverseAliases.contacts(deps.sql, alias, [...(author && !ours(author.address) ? [author] : []), ...replyTargets, ...others])
  const reverse = new Map([...known].map(([key, contact]) => [key, contact.address]))
  const aliasAddress = `${alias.alias}@${alias.domain}`
  const contactId = author && known.get(author.address.toLowerCase())?.id
  const links = forwardLinks({ secretKey: deps.config.secretKey, publicUrl: deps.config.publicUrl, mailDomain: srsDomain(deps.config, alias.domain), aliasId: alias.id, contactId, blockLink })
  return { contactId, headers: forwardHeaders({
    headers, spoolId, meta, mxHostname: deps.config.mxHostname, aliasDomain: alias.domain, mailDomains: deps.config.mailDomains,
    loopToken: deps.loopTokens.tokenFor(alias.id),
    tagSpamSubject: alias.spamHandling === 'tag-subject',
    from: { mailbox: author, reverse: (author && reverse.get(author.address.toLowerCase())) ?? aliasAddress },
    replyTo: replyTargets.map((m) => reverse.get(m.address.toLowerCase())!).filter(Boolean),
    contacts: new Map(others.map((m) => [m.address.toLowerCase(), reverse.get(m.address.toLowerCase())!])),
    links,
  }) }
}

/** The ids a reply to this message may reference (reply-headers.ts): its own, and those it refers to. */
function threadIdsOf(headers: HeaderField[]): string[] {
  return headers.filter((h) => ['message-id', 'in-reply-to', 'references'].includes(h.key)).flatMap((h) => messageIds(fieldValue(h))).slice(0, 100)
}

type OwnerCopy = { armored: string; recipient: string } | undefined

/**
 * The message encrypted to the owner's default key, made once when first asked for; undefined
 * without a key. The whole message is read for it (age encrypts it as one payload).
 */
function ownerCopy(ctx: DeliveryContext<unknown>, headers: HeaderField[], key: () => Promise<string | undefined>): () => Promise<(OwnerCopy & { forwarded: Buffer }) | undefined> {
  let made: Promise<(OwnerCopy & { forwarded: Buffer }) | undefined> | undefined
  const make = async () => {
    const recipient = await key()
    if (!recipient) return undefined
    const raw = await ctx.message.whole()
    const forwarded = joinMessage(headers, splitMessage(raw).body)
    return { armored: await encryptPayload(raw, forwarded, recipient), recipient, forwarded }
  }
  return () => (made ??= make())
}

/** For the undelivered record: a copy that cannot be made must not keep the failure from being recorded. */
async function copyForRecord(copy: () => Promise<OwnerCopy>): Promise<OwnerCopy> {
  try {
    return await copy()
  } catch (error) {
    log.error('undelivered.copy_failed', errorFields(error))
    return undefined
  }
}

export function forwardEmailHandler(deps: DeliveryDeps) {
  return async ({ deliveryId }: Payload<typeof queues.forwardEmail>) => {
    const outcome = await runDelivery<ForwardTargetState | undefined>(deps, deliveryId, async (ctx): Promise<DeliveryOutcome> => {
      const { delivery, alias, spoolId, message: spooled, meta } = ctx
      if (!delivery.target) return { status: 'failed', reason: 'no-target' }
      // Only to addresses that confirmed they want this user's mail (issue 11 item 5).
      if (!ctx.read?.confirmed) return { status: 'held' }
      // Nor to a target marked for its hard bounces (issue 30): held until it is re-enabled.
      if (ctx.read.disabled) return { status: 'held' }
      const original = await spooled.headers()
      const { headers, contactId } = await forwardHeadersOf(deps, alias, spoolId, original, meta, ctx.read.blockLink)
      const copy = ownerCopy(ctx, headers, async () => ctx.read?.key)
      const encrypted = alias.encryptForwarded ? await copy() : undefined
      // ARC-sealed with what the MX found (RFC 8617), so the receiver can trust the sender's authentication after our rewrite
      const arc = { authResults: meta.auth.headers, verdict: meta.auth.arc }
      const message = encrypted
        ? await deps.dkim.sign(encryptedForward({ ...encrypted, publicUrl: deps.config.publicUrl, receivedAt: new Date(meta.receivedAt) }), alias.domain, undefined, arc)
        : await deps.dkim.signStreamed(headers, () => spooled.body(), alias.domain, undefined, arc)
      try {
        await deps.transport.send({ id: delivery.id, from: deps.srs.forward(meta.mailFrom, srsDomain(deps.config, alias.domain), Date.now(), deps.srs.bounceTag(alias.id, delivery.target)), to: delivery.target, raw: message })
      } catch (error) {
        if (!(error instanceof PermanentDeliveryError)) throw error
        const code = isHardBounce(error.responseCode) ? error.responseCode : undefined
        const reason = relayReason(error)
        await keepUndelivered(ctx.tx, { alias, target: delivery.target, reason, code, copy: await copyForRecord(copy) })
        if (code) await recordBounce(ctx.tx, deps.boss, { userId: alias.userId, aliasId: alias.id, target: delivery.target, code, reason })
        return { status: 'failed', reason: `smtp-${error.responseCode ?? 'rejected'}` }
      }
      // the target took it: its earlier hard bounces are no longer in a row
      if (ctx.read.bounces > 0) await clearTargetBounces(ctx.tx, alias.userId, delivery.target)
      // recorded with the sent mark, in its round trip
      return { status: 'sent', threadIds: threadIdsOf(original), contactId }
    }, getForwardTargetStates) // read with the lock of the delivery row, for the whole batch
    log.info('delivery.finished', { queue: queues.forwardEmail.name, delivery: deliveryId, status: outcome?.status ?? 'already-done' })
  }
}

/** The dead-letter consumer of `forward-email`: out of retries, the message is kept or reported. */
export function abandonForwardEmail(deps: DeliveryDeps, deliveryId: string): Promise<void> {
  return abandonDelivery(deps, deliveryId, async (ctx) => {
    const { delivery, alias } = ctx
    if (!delivery.target) return
    const { headers } = await forwardHeadersOf(deps, alias, ctx.spoolId, await ctx.message.headers(), ctx.meta)
    const copy = ownerCopy(ctx, headers, () => findDefaultPublicKey(ctx.tx, alias.userId))
    await keepUndelivered(ctx.tx, { alias, target: delivery.target, reason: exhaustedReason(delivery.attempts, delivery.lastError), copy: await copyForRecord(copy) })
  })
}
