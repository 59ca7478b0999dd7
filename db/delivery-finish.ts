// How a delivery ends, in Postgres: its status, the spooled message deleted with the last one, the
// thread Message-IDs of a sent reply, the alias counters. The delivery step ends a batch of
// forwards with these statements (workers/delivery/delivery-step.ts), and the API's "drop" of a
// failing delivery ends one with the same (api/undelivered/undelivered-routes.ts): here, below both.
import type { Sql, Tx } from './client.ts'
import { incrementAliasCounter, randomShard, type AliasCounter } from './alias-counters.ts'
import { deleteSpoolMessagesIfDone, endDeliveries, lockDelivery, lockSpoolMessages, updateSpoolMeta, type Delivery } from './spool.ts'
import { recordThreadMessageIds } from './thread-message-ids.ts'
import { countContactForwards } from './alias-contacts.ts'

/**
 * What a handler returns: done, failed for good with a short reason code (never server text), or
 * held until its target is confirmed (the message stays spooled; confirming sets it pending again).
 * `threadIds`: Message-IDs recorded on the alias's threads with the sent mark (workers/delivery/reply-headers.ts).
 */
export type DeliveryOutcome =
  | { status: 'sent'; threadIds?: string[]; /** the author's contact (a forward): its forwards are counted */ contactId?: string }
  | { status: 'failed'; reason: string }
  | { status: 'held' }

const successCounter: Record<Delivery['kind'], AliasCounter> = { email: 'forwarded', webhook: 'forwarded', reply: 'replied', operator: 'forwarded' }

/** A delivery's end as its batch writes it; `meta`: the authentication results checked here, stored with the message. */
export interface Finish { delivery: Delivery; outcome: DeliveryOutcome; meta?: Buffer }

/**
 * The statements that end a batch's deliveries, sent as they are made: one round trip, on the
 * transaction's connection, run in this order (the messages' locks first), so the last delivery of
 * a message to finish still sees every other done and deletes it. A held delivery only changes its
 * status. One statement of each kind for the whole batch.
 */
export function finishStatements(tx: Tx, finishes: Finish[]): Promise<unknown>[] {
  const spoolIds = [...new Set(finishes.filter((f) => f.outcome.status !== 'held').map((f) => f.delivery.spoolId))].sort()
  const threads = finishes.flatMap((f) => (f.outcome.status === 'sent' && f.outcome.threadIds?.length && f.delivery.aliasId ? [{ aliasId: f.delivery.aliasId, ids: f.outcome.threadIds }] : []))
  return [
    lockSpoolMessages(tx, spoolIds),
    endDeliveries(tx, finishes.map(({ delivery, outcome }) => ({ id: delivery.id, status: outcome.status, error: outcome.status === 'failed' ? outcome.reason : null }))),
    deleteSpoolMessagesIfDone(tx, spoolIds),
    recordThreadMessageIds(tx, threads),
    ...finishes.flatMap((f) => (f.meta ? [updateSpoolMeta(tx, f.delivery.spoolId, f.meta)] : [])),
    countContactForwards(tx, finishes.flatMap((f) => (f.outcome.status === 'sent' && f.outcome.contactId ? [f.outcome.contactId] : []))),
    ...counterStatements(tx, finishes.map((f) => counterOf(f.delivery, f.outcome)).filter((c) => c !== undefined)),
  ]
}

/** The alias counter a finished delivery bumps; none for a held one or one without an alias. */
function counterOf(delivery: Delivery, outcome: DeliveryOutcome): { aliasId: string; counter: AliasCounter } | undefined {
  if (outcome.status === 'held' || !delivery.aliasId) return undefined
  return { aliasId: delivery.aliasId, counter: outcome.status === 'sent' ? successCounter[delivery.kind] : 'failed' }
}

/**
 * A group's counter bumps, after every finish: summed per alias and counter, on one shard row per
 * alias for the whole group, in alias-id order. Rows locked in one order by every group, and after
 * every other lock the group takes, so two groups that bump the same aliases can not deadlock (a
 * shard picked at random per bump did: two groups took two aliases' rows in opposite orders).
 */
function counterStatements(tx: Tx, counters: { aliasId: string; counter: AliasCounter }[]): Promise<unknown>[] {
  const sums = new Map<string, { aliasId: string; counter: AliasCounter; by: number }>()
  for (const c of counters) {
    const key = `${c.aliasId} ${c.counter}`
    const sum = sums.get(key)
    if (sum) sum.by++
    else sums.set(key, { ...c, by: 1 })
  }
  const shard = randomShard()
  return [...sums.values()]
    .sort((a, b) => (a.aliasId < b.aliasId ? -1 : a.aliasId > b.aliasId ? 1 : 0))
    .map((c) => incrementAliasCounter(tx, c.aliasId, c.counter, c.by, shard))
}

/** Waits for every statement; throws the error of the first that failed (those after it fail only because the transaction is aborted). */
export async function allInOrder(statements: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(statements)
  const failed = settled.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
}

/** One delivery's end, as a batch of one. */
export function finishDelivery(tx: Tx, delivery: Delivery, outcome: DeliveryOutcome): Promise<void> {
  return allInOrder(finishStatements(tx, [{ delivery, outcome }]))
}

/**
 * The owner gave up on a delivery that keeps failing: it fails for good now (the job still waiting
 * for its next try then finds it done). False when it is no longer pending.
 */
export async function dropDelivery(sql: Sql, deliveryId: string, reason: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const delivery = await lockDelivery(tx, deliveryId)
    if (!delivery || delivery.status !== 'pending') return false
    await finishDelivery(tx, delivery, { status: 'failed', reason })
    return true
  })
}
