// DATA → one Postgres transaction: the sealed message, one delivery row per (message, target)
// and one job per delivery, and the dropped counters of paused aliases. The MX answers 250 only
// after it commits (DESIGN §5); any failure leaves nothing behind and the client is told 451.
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../db/client.ts'
import { incrementAliasCounter } from '../db/alias-counters.ts'
import { insertDelivery, insertSpoolMessage, type DeliveryKind } from '../db/spool.ts'
import { partitionTargets } from '../lib/alias-target-rules.ts'
import type { Recipient } from './mx-recipients.ts'
import { enqueue, queues } from './queues.ts'
import type { SpoolCodec, SpoolMeta } from './spool-codec.ts'

export interface SpoolDeps {
  sql: Sql
  boss: PgBoss
  codec: SpoolCodec
}

interface PlannedDelivery {
  aliasId: string | null
  kind: DeliveryKind
  target: string | null
  reverseAliasId?: string
}

const queueFor = { email: queues.forwardEmail, webhook: queues.forwardWebhook, reply: queues.forwardReply, operator: queues.forwardOperator } as const

export function planDeliveries(recipients: Recipient[]): { deliveries: PlannedDelivery[]; droppedAliasIds: string[] } {
  const deliveries: PlannedDelivery[] = []
  const seen = new Set<string>()
  const dropped = new Set<string>()
  for (const r of recipients) {
    if (r.kind === 'paused') dropped.add(r.alias.id)
    if (r.kind === 'alias' && !seen.has(r.alias.id)) {
      seen.add(r.alias.id)
      const { emails, webhooks } = partitionTargets(r.alias.forwardTo)
      for (const email of emails) deliveries.push({ aliasId: r.alias.id, kind: 'email', target: email })
      for (const url of webhooks) deliveries.push({ aliasId: r.alias.id, kind: 'webhook', target: url })
    }
    if (r.kind === 'operator' && !seen.has(r.role)) {
      seen.add(r.role)
      deliveries.push({ aliasId: null, kind: 'operator', target: r.role })
    }
    if (r.kind === 'reverse' && !seen.has(r.reverse.id)) {
      seen.add(r.reverse.id)
      deliveries.push({ aliasId: r.alias.id, kind: 'reply', target: null, reverseAliasId: r.reverse.id })
    }
  }
  return { deliveries, droppedAliasIds: [...dropped] }
}

/** Stores and enqueues; returns the spool id, or undefined when nothing needed storing. */
export async function spoolMessage(deps: SpoolDeps, recipients: Recipient[], message?: { raw: Buffer; meta: SpoolMeta }): Promise<string | undefined> {
  const { deliveries, droppedAliasIds } = planDeliveries(recipients)
  if (deliveries.length === 0 && droppedAliasIds.length === 0) return undefined
  if (deliveries.length && !message) throw new Error('deliveries without a message')
  const id = randomUUID()
  // One round trip for BEGIN and every statement (postgres.js pipelines on a reserved
  // connection; delivery ids are made here so nothing waits for a reply), then COMMIT once all
  // of them succeeded. Any failure rolls the whole message back.
  const tx = await deps.sql.reserve()
  try {
    // postgres.js runs a query when it is first awaited: BEGIN must be sent before anything else.
    const statements: Promise<unknown>[] = [tx`begin`.execute()]
    if (message && deliveries.length) {
      const { raw, meta } = message
      statements.push(insertSpoolMessage(tx, { id, raw: deps.codec.sealRaw(id, raw), meta: deps.codec.sealMeta(id, meta), size: raw.length }))
      for (const d of deliveries) {
        const deliveryId = randomUUID()
        statements.push(insertDelivery(tx, { id: deliveryId, spoolId: id, ...d }), enqueue(tx, deps.boss, queueFor[d.kind], { deliveryId }))
      }
    }
    for (const aliasId of droppedAliasIds) statements.push(incrementAliasCounter(tx, aliasId, 'dropped'))
    const settled = await Promise.allSettled(statements)
    const failed = settled.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    await tx`commit`
  } catch (error) {
    await tx`rollback`.catch(() => {})
    throw error
  } finally {
    tx.release()
  }
  return deliveries.length ? id : undefined
}
