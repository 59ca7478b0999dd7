// DATA → a Postgres transaction: the sealed message, one delivery row per (message, target)
// and one job per delivery, and the dropped counters of paused aliases; concurrent messages
// share a transaction (group commit). The MX answers 250 only after its message's transaction
// commits (docs/mail-flow.md); any failure leaves nothing of it behind and the client is told 451.
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { incrementAliasCounter } from '../../db/alias-counters.ts'
import { insertDeliveries, insertSpoolMessages, type DeliveryKind, type NewDelivery } from '../../db/spool.ts'
import { partitionTargets } from '../../shared/alias-target-rules.ts'
import { coalesce } from '../../lib/coalesce.ts'
import type { Recipient } from '../mail/mx-recipients.ts'
import { enqueueMany, queues } from '../../db/queues.ts'
import type { SpoolCodec, SpoolMeta } from '../mail/spool-codec.ts'

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

/** Messages larger than this are not grouped with others. */
export const GROUP_COMMIT_MAX_BYTES = 256 * 1024

/** What one accepted message writes, sealed and planned before any database work. */
interface SpoolWrite {
  message?: { id: string; raw: Buffer; meta: Buffer; size: number }
  deliveries: NewDelivery[]
  droppedAliasIds: string[]
}

/**
 * Writes a batch in one transaction: BEGIN, every statement and COMMIT go out as one pipeline
 * on a reserved connection (ids are made here, so nothing waits for a reply), and any failure
 * rolls the whole batch back.
 */
async function writeBatch(deps: SpoolDeps, writes: SpoolWrite[]): Promise<void> {
  const tx = await deps.sql.reserve()
  try {
    // postgres.js runs a query when it is first awaited: BEGIN must be sent before anything else.
    const statements: Promise<unknown>[] = [tx`begin`.execute()]
    statements.push(insertSpoolMessages(tx, writes.flatMap((w) => (w.message ? [w.message] : []))))
    const deliveries = writes.flatMap((w) => w.deliveries)
    statements.push(insertDeliveries(tx, deliveries))
    // one insert per queue for the whole batch
    for (const kind of new Set(deliveries.map((d) => d.kind))) {
      statements.push(enqueueMany(tx, deps.boss, queueFor[kind], deliveries.filter((d) => d.kind === kind).map((d) => ({ deliveryId: d.id }))))
    }
    // in one order everywhere, so two MX processes' batches can not deadlock on the counters
    for (const aliasId of writes.flatMap((w) => w.droppedAliasIds).sort()) statements.push(incrementAliasCounter(tx, aliasId, 'dropped'))
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
}

/**
 * Group commit (lib/coalesce.ts): the messages of concurrent DATA commands that arrive while a
 * batch is being committed are written together in the next transaction, so one commit (and
 * one WAL flush) serves many clients, and each still hears 250 only after its own commit. When
 * a batch fails, each of its messages is tried again alone, so one bad message does not cost
 * the others their acceptance; a message that fails alone too gets the error (451 at the MX).
 * A large message commits alone: its own transfer outweighs a commit, and a batch of them
 * would be one statement of gigabytes (postgres.js sends bytea as hex text).
 */
export function createSpooler(deps: SpoolDeps, maxBatch = 64) {
  const commit = coalesce(async (writes: SpoolWrite[]): Promise<(Error | undefined)[]> => {
    try {
      await writeBatch(deps, writes)
      return writes.map(() => undefined)
    } catch (error) {
      if (writes.length === 1) return [error as Error]
      return Promise.all(writes.map((w) => writeBatch(deps, [w]).then(() => undefined, (e: Error) => e)))
    }
  }, maxBatch)

  /** Stores and enqueues; returns the spool id, or undefined when nothing needed storing. */
  return async function spoolMessage(recipients: Recipient[], message?: { raw: Buffer; meta: SpoolMeta }): Promise<string | undefined> {
    const { deliveries, droppedAliasIds } = planDeliveries(recipients)
    if (deliveries.length === 0 && droppedAliasIds.length === 0) return undefined
    if (deliveries.length && !message) throw new Error('deliveries without a message')
    const id = randomUUID()
    const write: SpoolWrite = { deliveries: [], droppedAliasIds }
    if (message && deliveries.length) {
      write.message = { id, raw: deps.codec.sealRaw(id, message.raw), meta: deps.codec.sealMeta(id, message.meta), size: message.raw.length }
      write.deliveries = deliveries.map((d) => ({ id: randomUUID(), spoolId: id, ...d }))
    }
    if (write.message && write.message.size > GROUP_COMMIT_MAX_BYTES) await writeBatch(deps, [write])
    else {
      const error = await commit(write)
      if (error) throw error
    }
    return deliveries.length ? id : undefined
  }
}

export type Spooler = ReturnType<typeof createSpooler>
