// Queue `forward-email`: one inbound message to one of the alias's mailboxes, through the
// outbound transport, with the envelope sender rewritten by SRS on the alias domain, headers
// rewritten for anonymous replies, the body untouched, and a DKIM signature of the alias domain.
import { domainOf } from '../lib/mail-address.ts'
import { log } from '../lib/log.ts'
import type { DeliveryAlias } from '../db/alias-routing.ts'
import type { Payload } from './queues.ts'
import { queues } from './queues.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { runDelivery, type DeliveryOutcome } from './delivery-step.ts'
import { forwardHeaders } from './forward-headers.ts'
import { parseMailboxes } from './mime-words.ts'
import { PermanentDeliveryError } from './outbound-transport.ts'
import { firstValue, joinMessage, splitMessage, utf8 } from './raw-message.ts'
import { reverseAliasAddresses } from './reverse-alias-contacts.ts'
import type { SpoolMeta } from './spool-codec.ts'

const MAX_CONTACTS = 50

export async function buildForwardMessage(deps: DeliveryDeps, alias: DeliveryAlias, spoolId: string, raw: Buffer, meta: SpoolMeta): Promise<Buffer> {
  const { headers, body } = splitMessage(raw)
  const ours = (address: string) => deps.config.mailDomains.includes(domainOf(address))
  const author = parseMailboxes(utf8(firstValue(headers, 'from') ?? ''))[0]
  const replyTo = parseMailboxes(utf8(firstValue(headers, 'reply-to') ?? ''), 10).filter((m) => !ours(m.address))
  const others = [...parseMailboxes(utf8(firstValue(headers, 'to') ?? '')), ...parseMailboxes(utf8(firstValue(headers, 'cc') ?? ''))]
    .filter((m) => !ours(m.address)).slice(0, MAX_CONTACTS)
  const replyTargets = replyTo.length ? replyTo : author && !ours(author.address) ? [author] : []
  const reverse = await reverseAliasAddresses(deps.sql, alias, [...(author && !ours(author.address) ? [author] : []), ...replyTargets, ...others])
  const aliasAddress = `${alias.alias}@${alias.domain}`
  const rewritten = forwardHeaders({
    headers, spoolId, meta, mxHostname: deps.config.mxHostname, aliasDomain: alias.domain, mailDomains: deps.config.mailDomains,
    loopToken: deps.loopTokens.tokenFor(alias.id),
    from: { mailbox: author, reverse: (author && reverse.get(author.address.toLowerCase())) ?? aliasAddress },
    replyTo: replyTargets.map((m) => reverse.get(m.address.toLowerCase())!).filter(Boolean),
    contacts: new Map(others.map((m) => [m.address.toLowerCase(), reverse.get(m.address.toLowerCase())!])),
  })
  return joinMessage(rewritten, body)
}

export function forwardEmailHandler(deps: DeliveryDeps) {
  return async ({ deliveryId }: Payload<typeof queues.forwardEmail>) => {
    const outcome = await runDelivery(deps, deliveryId, async ({ delivery, alias, spoolId, raw, meta }): Promise<DeliveryOutcome> => {
      if (!delivery.target) return { status: 'failed', reason: 'no-target' }
      const message = await deps.dkim.sign(await buildForwardMessage(deps, alias, spoolId, raw, meta), alias.domain)
      try {
        await deps.transport.send({ id: delivery.id, from: deps.srs.forward(meta.mailFrom, alias.domain), to: delivery.target, raw: message })
      } catch (error) {
        if (error instanceof PermanentDeliveryError) return { status: 'failed', reason: `smtp-${error.responseCode ?? 'rejected'}` }
        throw error
      }
      return { status: 'sent' }
    })
    log.info('delivery.finished', { queue: queues.forwardEmail.name, delivery: deliveryId, status: outcome?.status ?? 'already-done' })
  }
}
