// Queue `retry-undelivered`: the owner asked to send a kept undelivered message again. The
// server cannot read the copy (age, to the owner's key), so what leaves is the encrypted copy
// itself in a short mail to the target it failed for (docs/decisions/0003-encrypted-forwarding.md).
// The row stays locked during the attempt; delivered, it is deleted with the "forwarded" count;
// refused for good, it goes back on the list with the relay's reply.
import { getAliasForDelivery } from '../../db/alias-routing.ts'
import { incrementAliasCounter } from '../../db/alias-counters.ts'
import type { Sql } from '../../db/client.ts'
import { lockUndeliveredCopy, removeDeliveredCopy, returnUndeliveredCopy } from '../../db/undelivered-messages.ts'
import { log } from '../../lib/log.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { keptCopyMail } from './encrypted-mail.ts'
import { PermanentDeliveryError, relayReason } from '../../lib/outbound-transport.ts'
import type { Payload, queues } from '../../db/queues.ts'
import { srsDomain } from '../mail/srs-domain.ts'

export function retryUndeliveredHandler(deps: DeliveryDeps) {
  return async ({ undeliveredId }: Payload<typeof queues.retryUndelivered>) => {
    const status = await deps.sql.begin(async (tx) => {
      const copy = await lockUndeliveredCopy(tx, undeliveredId)
      if (!copy || copy.status !== 'retrying' || !copy.encrypted || !copy.recipient) return 'gone'
      const alias = await getAliasForDelivery(tx, copy.aliasId)
      if (!alias) return 'gone'
      const aliasAddress = `${alias.alias}@${alias.domain}`
      const raw = keptCopyMail({
        id: copy.id, aliasAddress, aliasDomain: alias.domain, target: copy.target, armored: copy.encrypted,
        recipient: copy.recipient, failedAt: copy.createdAt, publicUrl: deps.config.publicUrl,
      })
      const message = await deps.dkim.sign(raw, alias.domain)
      try {
        // SRS sender: a bounce comes back to our MX and is dropped, never forwarded on
        await deps.transport.send({ id: copy.id, from: deps.srs.forward(aliasAddress, srsDomain(deps.config, alias.domain)), to: copy.target, raw: message })
      } catch (error) {
        if (!(error instanceof PermanentDeliveryError)) throw error
        await returnUndeliveredCopy(tx, copy.id, relayReason(error))
        return 'refused'
      }
      await removeDeliveredCopy(tx, copy.id)
      await incrementAliasCounter(tx, copy.aliasId, 'forwarded')
      return 'sent'
    })
    log.info('undelivered.retried', { undelivered: undeliveredId, status })
  }
}

/** The dead-letter consumer: the retry ran out of attempts, so the message is back on the list. */
export async function abandonUndeliveredRetry(sql: Sql, undeliveredId: string): Promise<void> {
  await sql.begin(async (tx) => {
    const copy = await lockUndeliveredCopy(tx, undeliveredId)
    if (copy?.status === 'retrying') await returnUndeliveredCopy(tx, copy.id, 'Sending it again failed: the relay could not be reached')
  })
}
