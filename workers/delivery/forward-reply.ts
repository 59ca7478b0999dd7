// Queue `forward-reply`: a reply the user wrote to a reverse alias, re-sent from the alias to
// the outside contact (the MX already checked it came from the alias owner's mailbox). One job
// per reverse alias named in the envelope, so a reply to several contacts reaches each. A reply
// the contact's server refuses for good comes back to the owner as a notice (reply-bounce.ts).
import { getReverseAlias, findUserReverseAliases } from '../../db/reverse-aliases.ts'
import { knownThreadMessageIds } from '../../db/thread-message-ids.ts'
import { domainOf } from '../../lib/mail-address.ts'
import { log } from '../../lib/log.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { runDelivery } from './delivery-step.ts'
import type { DeliveryOutcome } from '../../db/delivery-finish.ts'
import { parseMailboxes, type Mailbox } from '../../lib/mime-words.ts'
import { ownerMailboxes } from '../mail/mx-recipients.ts'
import { PermanentDeliveryError, relayReason } from '../../lib/outbound-transport.ts'
import { queues, type Payload } from '../../db/queues.ts'
import { fieldValue, firstValue, joinMessage, messageIds, splitMessage, utf8 } from '../../lib/raw-message.ts'
import { replyHeaders } from './reply-headers.ts'
import { scrubReplyMime } from './reply-mime.ts'
import { isReverseAliasLocalPart } from '../mail/reverse-alias-address.ts'
import { noticeReplyBounce } from './reply-bounce.ts'
import { isHardBounce } from './target-bounce.ts'

/** References kept at most (a thread deeper than this loses its oldest links, RFC 5322 §3.6.4 allows that). */
const MAX_REFERENCES = 100

export function forwardReplyHandler(deps: DeliveryDeps) {
  return async ({ deliveryId }: Payload<typeof queues.forwardReply>) => {
    const outcome = await runDelivery(deps, deliveryId, async ({ tx, delivery, alias, spoolId, message: spooled, meta }): Promise<DeliveryOutcome> => {
      const reverse = delivery.reverseAliasId ? await getReverseAlias(tx, delivery.reverseAliasId) : undefined
      if (!reverse) return { status: 'failed', reason: 'reverse-alias-deleted' }
      // whole: the MIME scrub rewrites parts anywhere in the body (reply-mime.ts)
      const { headers, body } = splitMessage(await spooled.whole())
      const named = [...parseMailboxes(utf8(firstValue(headers, 'to') ?? '')), ...parseMailboxes(utf8(firstValue(headers, 'cc') ?? ''))]
        .filter((m) => deps.config.mailDomains.includes(domainOf(m.address)) && isReverseAliasLocalPart(m.address.slice(0, m.address.lastIndexOf('@'))))
      const mine = await findUserReverseAliases(tx, alias.userId, [...named.map((m) => m.address.slice(0, m.address.lastIndexOf('@'))), reverse.localPart])
      const contacts = new Map<string, Mailbox>(mine.map((r) => [`${r.localPart}@${r.domain}`, { address: r.contactAddress, name: r.contactName ?? '' }]))
      const owners = [...ownerMailboxes(alias), meta.mailFrom.toLowerCase()].filter(Boolean)
      const aliasAddress = `${alias.alias}@${alias.domain}`
      const referenced = headers.filter((h) => h.key === 'references' || h.key === 'in-reply-to').flatMap((h) => messageIds(fieldValue(h))).slice(0, MAX_REFERENCES)
      const rewritten = replyHeaders({
        headers, spoolId, aliasAddress, aliasDomain: alias.domain, mxHostname: deps.config.mxHostname, receivedAt: meta.receivedAt,
        owners, contacts, recipient: { address: reverse.contactAddress, name: reverse.contactName ?? '' },
        threadIds: await knownThreadMessageIds(tx, alias.id, referenced), mailDomains: deps.config.mailDomains,
      })
      const scrubbed = scrubReplyMime(rewritten, body)
      const message = await deps.dkim.sign(joinMessage(scrubbed.headers, scrubbed.body), alias.domain)
      try {
        await deps.transport.send({ id: delivery.id, from: aliasAddress, to: reverse.contactAddress, raw: message })
      } catch (error) {
        if (error instanceof PermanentDeliveryError) {
          if (isHardBounce(error.responseCode)) await noticeReplyBounce(tx, deps, { alias, contact: reverse.contactAddress, code: error.responseCode, reason: relayReason(error) })
          return { status: 'failed', reason: `smtp-${error.responseCode ?? 'rejected'}` }
        }
        throw error
      }
      return { status: 'sent' }
    })
    log.info('delivery.finished', { queue: queues.forwardReply.name, delivery: deliveryId, status: outcome?.status ?? 'already-done' })
  }
}
