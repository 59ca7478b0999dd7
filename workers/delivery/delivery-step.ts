// The frame every forward job runs in. The delivery row is locked for the whole attempt, so a
// second copy of the job (after an expiry) waits and then finds the work done; a delivery that is
// no longer pending is never sent again. The send and the "sent" mark commit together; a crash
// between the two sends again with the same Message-ID / webhook-id, which receivers dedupe.
// When the last pending delivery of a message ends, the spooled message is deleted with it.
// The forwards of one fetched batch share a transaction and its statements (runLocked): BEGIN; one
// statement that locks every delivery of the batch and reads its alias and message, with the
// steps' own reads (one each per batch); then the finish of the whole batch with the COMMIT, in one
// round trip. Statements, not forwards, are what the delivery costs Postgres.
import type { Sql, Tx } from '../../db/client.ts'
import type { DeliveryAlias } from '../../db/alias-routing.ts'
import { allInOrder, finishDelivery, finishStatements, type DeliveryOutcome, type Finish } from '../../db/delivery-finish.ts'
import { lockDelivery, lockOpenDeliveries, preferIndexScans, recordDeliveryAttempt, type Delivery, type OpenedDelivery } from '../../db/spool.ts'
import type { DeferredAuth } from '../mail/message-auth.ts'
import { SpoolDamagedError, type SpoolCodec, type SpoolMeta } from '../mail/spool-codec.ts'
import { SpooledMessage } from '../mail/spooled-message.ts'
import { UnparseableMessageError } from '../mail/stored-message-parser.ts'

/** An opened delivery: the locked row and its message (read from the spool as a step needs it). */
export interface SpoolContext {
  tx: Tx
  delivery: Delivery
  spoolId: string
  message: SpooledMessage
  meta: SpoolMeta
  /** the authentication results were checked by this step (the MX left them out, and no step stored them yet) */
  checkedHere: boolean
  /** another delivery of the message is pending or held: the message stays spooled after this one */
  othersOpen: boolean
}

export interface DeliveryContext<R = undefined> extends SpoolContext {
  alias: DeliveryAlias
  /** what the step's own read (runDelivery's `read`) found */
  read: R
}

/**
 * A step's own read, for the deliveries of a batch at once (one statement): the results by
 * delivery id. It leaves behind the lock of the batch's deliveries and runs once the locks are held
 * (statements on one connection run in order). Batches group their members' reads by function, so
 * a step passes the same function every time.
 */
export type Read<R> = (tx: Tx, deliveryIds: string[]) => Promise<Map<string, R>>


export interface StepDeps {
  sql: Sql
  codec: SpoolCodec
  /** the authentication check the MX left to the delivery, run once per message */
  auth: DeferredAuth
}


/**
 * The delivery's message, opened; undefined when it is gone. The authentication the MX left out
 * (mail whose author domain enforces no DMARC policy) is checked here, on the stored message.
 */
async function openSpool(deps: StepDeps, tx: Tx, { delivery, spooled }: OpenedDelivery): Promise<SpoolContext | undefined> {
  if (!spooled) return undefined
  const { message: row, firstChunk, othersOpen } = spooled
  const message = new SpooledMessage(tx, deps.codec, row, firstChunk)
  const stored = deps.codec.openMeta(row.id, row.meta)
  const meta = await deps.auth.metaOf(row.id, stored, message)
  return { tx, delivery, spoolId: row.id, message, meta, checkedHere: !stored.auth, othersOpen }
}

/** The delivery's alias and opened message, and what the step read besides; undefined when the alias or message is gone. */
async function openDelivery<R>(deps: StepDeps, tx: Tx, opened: OpenedDelivery, read: R): Promise<DeliveryContext<R> | undefined> {
  const { alias } = opened
  const ctx = alias ? await openSpool(deps, tx, opened) : undefined
  return alias && ctx ? { ...ctx, alias, read } : undefined
}

/** What an attempt ran into, for the owner's report: a code (smtp-451, http-503, ECONNREFUSED), never a server's text. */
function attemptError(error: unknown): string {
  const e = error as { responseCode?: number; httpStatus?: number; code?: string; name?: string }
  if (typeof e?.responseCode === 'number') return `smtp-${e.responseCode}`
  if (typeof e?.httpStatus === 'number') return `http-${e.httpStatus}`
  if (typeof e?.code === 'string' && /^[A-Z0-9_]{2,32}$/.test(e.code)) return e.code
  return error instanceof Error ? error.name : 'error'
}

/** Failures that no retry can mend end the delivery at once (a retried job would fail the same way). */
function permanent(error: unknown): DeliveryOutcome {
  if (error instanceof UnparseableMessageError) return { status: 'failed', reason: 'unparseable-message' }
  // a chunk missing or altered in the database: no retry brings it back
  if (error instanceof SpoolDamagedError) return { status: 'failed', reason: 'spool-damaged' }
  throw error
}

export function runDelivery<R = undefined>(
  deps: StepDeps, deliveryId: string, send: (ctx: DeliveryContext<R>) => Promise<DeliveryOutcome>, read?: Read<R>,
): Promise<DeliveryOutcome | undefined> {
  return runLocked(deps, deliveryId, (tx, opened, extra) => openDelivery(deps, tx, opened, extra as R), send, 'alias-deleted', read)
}

/** A delivery that belongs to no alias: mail to postmaster@ or abuse@, for the operator. */
export function runOperatorDelivery(deps: StepDeps, deliveryId: string, send: (ctx: SpoolContext) => Promise<DeliveryOutcome>): Promise<DeliveryOutcome | undefined> {
  return runLocked(deps, deliveryId, (tx, opened) => openSpool(deps, tx, opened), send, 'message-gone')
}

/** What one delivery's attempt came to, inside its group's transaction. */
type Attempt =
  | { kind: 'gone' }
  | { kind: 'threw'; error: unknown }
  | ({ kind: 'finish' } & Finish)

interface Member {
  deliveryId: string
  read?: Read<unknown>
  /** the attempt, once the group's lock and reads are back: the locked delivery (undefined when gone) and the step's read */
  attempt: (tx: Tx, opened: OpenedDelivery | undefined, read: unknown) => Promise<Attempt>
  resolve: (outcome: DeliveryOutcome | undefined) => void
  reject: (error: unknown) => void
}

/** The attempts that asked for a transaction in this turn of the event loop, by pool. */
const gathering = new WeakMap<Sql, Member[]>()

/**
 * Runs the attempt in a transaction shared with the attempts that asked in the same turn of the
 * event loop: the forwards of one fetched batch of jobs (db/queues.ts `work`, batchSize). The group
 * costs one BEGIN, one round trip for the locks and reads and one for the finishes with the COMMIT,
 * one statement of each kind for the group, instead of a transaction and a dozen statements for
 * each forward. A job fetched alone (batchSize 1) has a transaction of its own.
 */
function runLocked<C extends SpoolContext>(
  deps: StepDeps, deliveryId: string, open: (tx: Tx, opened: OpenedDelivery, read: unknown) => Promise<C | undefined>,
  send: (ctx: C) => Promise<DeliveryOutcome>, gone: string, read?: Read<unknown>,
): Promise<DeliveryOutcome | undefined> {
  return new Promise((resolve, reject) => {
    const member: Member = { deliveryId, read, attempt: (tx, opened, extra) => attemptDelivery(deps, tx, opened, extra, open, send, gone), resolve, reject }
    let group = gathering.get(deps.sql)
    // A second job for a delivery already in the group runs in a transaction of its own: it waits
    // for the group's lock on the row and then finds the delivery done (in one transaction it would
    // hold the lock itself, see the delivery pending, and send it again).
    if (group?.some((m) => m.deliveryId === deliveryId)) return void runGroup(deps, [member])
    if (!group) {
      const members: Member[] = (group = [])
      gathering.set(deps.sql, members)
      queueMicrotask(() => {
        gathering.delete(deps.sql)
        void runGroup(deps, members)
      })
    }
    group.push(member)
  })
}

async function attemptDelivery<C extends SpoolContext>(
  deps: StepDeps, tx: Tx, opened: OpenedDelivery | undefined, read: unknown,
  open: (tx: Tx, opened: OpenedDelivery, read: unknown) => Promise<C | undefined>, send: (ctx: C) => Promise<DeliveryOutcome>, gone: string,
): Promise<Attempt> {
  try {
    if (!opened || opened.delivery.status !== 'pending') return { kind: 'gone' }
    const { delivery } = opened
    const ctx = await open(tx, opened, read)
    const outcome: DeliveryOutcome = ctx ? await send(ctx).catch(permanent) : { status: 'failed', reason: gone }
    // The results of the check made here are stored with a message that stays spooled: its other
    // targets' deliveries (later, or in another process) and a held forward (which waits days,
    // maybe, for its target) use these, made near its arrival, and no later step checks it again.
    // A message whose last delivery this was is deleted: nothing to store.
    const store = ctx?.checkedHere && (outcome.status === 'held' || ctx.othersOpen)
    return { kind: 'finish', delivery, outcome, meta: store ? deps.codec.sealMeta(ctx.spoolId, ctx.meta) : undefined }
  } catch (error) {
    return { kind: 'threw', error }
  }
}

/** The group's locks and every step's read (one statement per read function), sent together. */
async function lockAndRead(tx: Tx, members: Member[]): Promise<{ opened: Map<string, OpenedDelivery>; reads: Map<Read<unknown>, Map<string, unknown>> }> {
  const byRead = new Map<Read<unknown>, string[]>()
  for (const m of members) if (m.read) byRead.set(m.read, [...(byRead.get(m.read) ?? []), m.deliveryId])
  const [, locked, ...results] = await Promise.all([
    preferIndexScans(tx), lockOpenDeliveries(tx, members.map((m) => m.deliveryId)), ...[...byRead].map(([read, ids]) => read(tx, ids)),
  ])
  return { opened: new Map(locked.map((o) => [o.delivery.id, o])), reads: new Map([...byRead.keys()].map((read, i) => [read, results[i]])) }
}

async function runGroup(deps: StepDeps, members: Member[]): Promise<void> {
  // locked in one order everywhere (by delivery id, then by message id when they finish), so two
  // groups that share deliveries or messages can not deadlock
  members.sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : a.deliveryId > b.deliveryId ? 1 : 0))
  const failed = (member: Member, error: unknown) =>
    recordDeliveryAttempt(deps.sql, member.deliveryId, attemptError(error)).catch(() => {}).then(() => member.reject(error))
  let done: { attempts: Attempt[]; finished: Promise<void> }
  try {
    done = await deps.sql.begin(async (tx) => {
      // every member's lock and reads leave together; the sends start when they are back
      const { opened, reads } = await lockAndRead(tx, members)
      const attempts = await Promise.all(members.map((m) => m.attempt(tx, opened.get(m.deliveryId), m.read && reads.get(m.read)?.get(m.deliveryId))))
      const finishes = attempts.filter((a) => a.kind === 'finish')
      // Not awaited here: postgres.js sends the COMMIT as soon as this callback returns, behind the
      // finishes' statements and in their round trip. A statement that fails leaves the
      // transaction aborted, so that COMMIT rolls the whole group back (PostgreSQL answers
      // ROLLBACK, no error), and every member with a finish throws below and is retried.
      const finished = allInOrder(finishStatements(tx, finishes))
      finished.catch(() => {}) // awaited below, unless the COMMIT failed first
      return { attempts, finished }
    })
  } catch (error) {
    // the transaction itself failed (BEGIN, the locks and reads, COMMIT, the connection): nothing of it committed
    await Promise.all(members.map((m) => failed(m, error)))
    return
  }
  // one finish that failed rolled back every finish of the group
  const rolledBack = await done.finished.then(() => undefined, (error: unknown) => ({ error }))
  await Promise.all(members.map(async (member, i) => {
    const attempt = done.attempts[i]
    if (attempt.kind === 'gone') return member.resolve(undefined)
    if (attempt.kind === 'threw') return failed(member, attempt.error)
    if (rolledBack) return failed(member, rolledBack.error)
    member.resolve(attempt.outcome)
  }))
}


/**
 * A job that ran out of retries (its dead-letter copy): the delivery fails for good. `keep` sees
 * the message first, in the same transaction (e-mail targets keep an encrypted copy).
 */
export async function abandonDelivery(deps: StepDeps, deliveryId: string, keep?: (ctx: DeliveryContext) => Promise<void>): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const [opened] = await lockOpenDeliveries(tx, [deliveryId])
    if (!opened || opened.delivery.status !== 'pending') return
    const ctx = await openDelivery(deps, tx, opened, undefined)
    if (keep && ctx) await keep(ctx)
    await finishDelivery(tx, opened.delivery, { status: 'failed', reason: 'retries-exhausted' })
  })
}

/** A forward held past the hold period (its target was never confirmed) fails for good. */
export async function expireHeldDelivery(sql: Sql, deliveryId: string): Promise<void> {
  await sql.begin(async (tx) => {
    const delivery = await lockDelivery(tx, deliveryId)
    if (!delivery || delivery.status !== 'held') return
    await finishDelivery(tx, delivery, { status: 'failed', reason: 'target-not-confirmed' })
  })
}
