// The inbound spool (sealed messages awaiting delivery) and its deliveries, one per target.
import type { SpamHandling } from '../shared/alias-schemas.ts'
import type { DeliveryAlias } from './alias-routing.ts'
import type { Db } from './client.ts'

export interface SpoolMessage {
  id: string
  /** the single sealed blob of a row spooled before chunking; null when `chunks` says how many */
  raw: Buffer | null
  meta: Buffer
  size: number
  chunks: number | null
  receivedAt: Date
}

/** A new message: its bytes are in spool_chunks (`chunks` of them). */
export interface NewSpoolMessage { id: string; meta: Buffer; size: number; chunks: number }

export interface NewSpoolChunk { spoolId: string; seq: number; sealed: Buffer }

export type DeliveryKind = 'email' | 'webhook' | 'reply' | 'operator'
export type DeliveryStatus = 'pending' | 'held' | 'sent' | 'failed'

export interface Delivery {
  id: string
  spoolId: string
  aliasId: string | null
  kind: DeliveryKind
  target: string | null
  reverseAliasId: string | null
  status: DeliveryStatus
  attempts: number
  /** what the last failed attempt ran into (an error code, never a server's text) */
  lastError: string | null
}

// The MX's inserts take any number of rows in one statement (it commits concurrent accepts
// together) through unnest of arrays: one statement text whatever the count, so each connection
// prepares it once (a VALUES list per row count was a new prepared statement, and a round trip
// to describe it, for every batch size). Sealed bytes travel as base64 text, decoded by Postgres:
// postgres.js sends a bytea as hex, twice the bytes, and escapes it again inside an array.
const base64 = (bytes: Buffer) => bytes.toString('base64')

/** Several messages in one statement (the MX commits concurrent accepts together). */
export async function insertSpoolMessages(db: Db, messages: NewSpoolMessage[]): Promise<void> {
  if (messages.length === 0) return
  await db`insert into spool_messages (id, meta, size, chunks)
    select id, decode(meta, 'base64'), size, chunks
    from unnest(${messages.map((m) => m.id)}::uuid[], ${messages.map((m) => base64(m.meta))}::text[], ${messages.map((m) => m.size)}::int[], ${messages.map((m) => m.chunks)}::int[]) as m(id, meta, size, chunks)`
}

/** Sealed chunks of one or more messages (the rows of their messages may follow in the same transaction). */
export async function insertSpoolChunks(db: Db, chunks: NewSpoolChunk[]): Promise<void> {
  if (chunks.length === 0) return
  await db`insert into spool_chunks (spool_id, seq, sealed)
    select spool_id, seq, decode(sealed, 'base64')
    from unnest(${chunks.map((c) => c.spoolId)}::uuid[], ${chunks.map((c) => c.seq)}::int[], ${chunks.map((c) => base64(c.sealed))}::text[]) as c(spool_id, seq, sealed)`
}

/**
 * One chunk of a message being streamed in, as a plain bytea parameter: a large message writes
 * hundreds of them, and the arrays of base64 text above kept the MX's memory ~60 MB higher under
 * 40 concurrent 24 MB messages (`npm run bench -- mx-memory`: 321 MB, 260 MB with this).
 */
export async function insertSpoolChunk(db: Db, chunk: NewSpoolChunk): Promise<void> {
  await db`insert into spool_chunks (spool_id, seq, sealed) values (${chunk.spoolId}, ${chunk.seq}, ${chunk.sealed})`
}

export async function getSpoolMessage(db: Db, id: string): Promise<SpoolMessage | undefined> {
  const [row] = await db<SpoolMessage[]>`select id, raw, meta, size, chunks, received_at from spool_messages where id = ${id}`
  return row
}

/** A delivery locked for its attempt, with what every step reads (undefined where it is gone). */
export interface OpenedDelivery {
  delivery: Delivery
  alias: DeliveryAlias | undefined
  /** `othersOpen`: another delivery of the message is pending or held (the message stays spooled) */
  spooled: { message: SpoolMessage; firstChunk: Buffer | undefined; othersOpen: boolean } | undefined
}

type OpenedRow = Delivery & {
  aliasRowId: string | null; aliasUserId: string | null; aliasAlias: string | null; aliasDomain: string | null; aliasForwardTo: string | null
  aliasLastForwardTo: string | null; aliasActive: boolean | null; aliasWebhookSecret: string | null; aliasWebhookSecretSealed: Uint8Array | null
  aliasEncryptForwarded: boolean | null; aliasSpamHandling: SpamHandling | null
  messageId: string | null; raw: Buffer | null; meta: Buffer | null; size: number | null; chunks: number | null; receivedAt: Date | null
  firstChunk: Buffer | null; othersOpen: boolean
}

/**
 * Locks the deliveries of a fetched batch for the rest of the transaction, in id order (as every
 * batch does, so two batches sharing deliveries can not deadlock), and reads with them their alias,
 * their message and its first sealed chunk: one statement for the batch. A second worker holding
 * the same job (after an expiry) waits here and then sees the delivery row as the holder left it,
 * no longer pending, so a target is never sent twice. The alias and message are read as the
 * statement began; a delivery still pending after the wait was not finished by the holder, and
 * neither its message nor (while it is pending) whether that is spooled changed meanwhile.
 */
export async function lockOpenDeliveries(db: Db, ids: string[]): Promise<OpenedDelivery[]> {
  if (ids.length === 0) return []
  const rows = await db<OpenedRow[]>`
    select d.id, d.spool_id, d.alias_id, d.kind, d.target, d.reverse_alias_id, d.status, d.attempts, d.last_error,
      a.id as alias_row_id, a.user_id as alias_user_id, a.alias as alias_alias, a.domain as alias_domain, a.forward_to as alias_forward_to,
      a.last_forward_to as alias_last_forward_to, a.active as alias_active, a.webhook_secret as alias_webhook_secret,
      a.webhook_secret_sealed as alias_webhook_secret_sealed, a.encrypt_forwarded as alias_encrypt_forwarded, a.spam_handling as alias_spam_handling,
      s.id as message_id, s.raw, s.meta, s.size, s.chunks, s.received_at, c.sealed as first_chunk,
      exists (select 1 from deliveries o where o.spool_id = d.spool_id and o.id <> d.id and o.status in ('pending', 'held')) as others_open
    from deliveries d left join aliases a on a.id = d.alias_id
      left join spool_messages s on s.id = d.spool_id
      left join spool_chunks c on c.spool_id = s.id and c.seq = 0
    where d.id = any(${ids}::uuid[])
    order by d.id
    for update of d`
  return rows.map((r) => ({
    delivery: { id: r.id, spoolId: r.spoolId, aliasId: r.aliasId, kind: r.kind, target: r.target, reverseAliasId: r.reverseAliasId, status: r.status, attempts: r.attempts, lastError: r.lastError },
    alias: r.aliasRowId === null ? undefined : {
      id: r.aliasRowId, userId: r.aliasUserId!, alias: r.aliasAlias!, domain: r.aliasDomain!, forwardTo: r.aliasForwardTo!, lastForwardTo: r.aliasLastForwardTo,
      active: r.aliasActive!, webhookSecret: r.aliasWebhookSecret, webhookSecretSealed: r.aliasWebhookSecretSealed, encryptForwarded: r.aliasEncryptForwarded!,
      spamHandling: r.aliasSpamHandling!,
    },
    spooled: r.messageId === null ? undefined : {
      message: { id: r.messageId, raw: r.raw, meta: r.meta!, size: r.size!, chunks: r.chunks, receivedAt: r.receivedAt! },
      firstChunk: r.firstChunk ?? undefined,
      othersOpen: r.othersOpen,
    },
  }))
}

/** One sealed chunk of a message; undefined when it is not there. */
export async function getSpoolChunk(db: Db, spoolId: string, seq: number): Promise<Buffer | undefined> {
  const [row] = await db<{ sealed: Buffer }[]>`select sealed from spool_chunks where spool_id = ${spoolId} and seq = ${seq}`
  return row?.sealed
}

// Chunks are read as bytea: read as base64 text (cheaper to decode) they kept the delivery process
// ~50 MB higher under 40 concurrent 24 MB messages (`npm run bench -- mx-memory`: 369 -> 319 MB).

/**
 * Serialises the deliveries of the messages as they finish, so the last one to finish sees every
 * other as done and deletes the message (two finishing at once would each see the other pending).
 * Locked in id order, as every batch does, so two batches sharing messages can not deadlock.
 */
export async function lockSpoolMessages(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  await db`select id from spool_messages where id = any(${ids}::uuid[]) order by id for update`
}

/**
 * Deletes those of the messages none of whose deliveries is pending or held. The check runs per
 * message, by the index on spool_id (`offset 0` keeps it from becoming an anti-join: as one, its
 * plan for an array of ids read the whole index, 577 pages a batch).
 */
export async function deleteSpoolMessagesIfDone(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  await db`
    delete from spool_messages s where s.id = any(${ids}::uuid[])
      and not exists (select 1 from deliveries d where d.spool_id = s.id and d.status in ('pending', 'held') offset 0)`
}

export interface NewDelivery { id: string; spoolId: string; aliasId: string | null; kind: DeliveryKind; target: string | null; reverseAliasId?: string | null }

/** Ids are chosen by the caller, so the deliveries' jobs can be enqueued in the same pipeline. */
export async function insertDeliveries(db: Db, deliveries: NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return
  await db`insert into deliveries (id, spool_id, alias_id, kind, target, reverse_alias_id)
    select * from unnest(${deliveries.map((d) => d.id)}::uuid[], ${deliveries.map((d) => d.spoolId)}::uuid[], ${deliveries.map((d) => d.aliasId)}::uuid[],
      ${deliveries.map((d) => d.kind)}::text[], ${deliveries.map((d) => d.target)}::text[], ${deliveries.map((d) => d.reverseAliasId ?? null)}::uuid[])`
}

/**
 * Locks a delivery for the rest of the transaction: a second worker holding the same job (after an
 * expiry) waits here and then finds it no longer pending, so a target is never sent twice at once.
 */
export async function lockDelivery(db: Db, id: string): Promise<Delivery | undefined> {
  const [row] = await db<Delivery[]>`
    select id, spool_id, alias_id, kind, target, reverse_alias_id, status, attempts, last_error
    from deliveries where id = ${id} for update`
  return row
}

/**
 * How an attempt ended: sent or failed for good (an attempt counted), or held until its target is
 * confirmed (no attempt counted).
 */
export interface DeliveryEnd { id: string; status: 'sent' | 'failed' | 'held'; error: string | null }

/** Ends the deliveries of a batch in one statement. */
export async function endDeliveries(db: Db, ends: DeliveryEnd[]): Promise<void> {
  if (ends.length === 0) return
  await db`
    update deliveries d set status = e.status,
      last_error = case when e.status = 'held' then d.last_error else e.error end,
      attempts = d.attempts + case when e.status = 'held' then 0 else 1 end,
      finished_at = case when e.status = 'held' then d.finished_at else now() end,
      last_attempt_at = case when e.status = 'held' then d.last_attempt_at else now() end
    from unnest(${ends.map((e) => e.id)}::uuid[], ${ends.map((e) => e.status)}::text[], ${ends.map((e) => e.error)}::text[]) as e(id, status, error)
    where d.id = e.id`
}

/** The message's sealed metadata, replaced: a held forward keeps the authentication results of its arrival. */
export async function updateSpoolMeta(db: Db, id: string, meta: Buffer): Promise<void> {
  await db`update spool_messages set meta = ${meta} where id = ${id}`
}

/** Records a failed attempt (error class only, never a server's text: it can quote addresses). */
export async function recordDeliveryAttempt(db: Db, id: string, error: string): Promise<void> {
  await db`update deliveries set attempts = attempts + 1, last_error = ${error}, last_attempt_at = now() where id = ${id}`
}

export interface SpoolSummary {
  messages: number
  bytes: number
  oldestReceivedAt: Date | null
  pendingDeliveries: number
}

/** What the spool holds (npm run ops -- spool): sealed messages still awaiting a delivery. */
export async function summarizeSpool(db: Db): Promise<SpoolSummary> {
  const [row] = await db<SpoolSummary[]>`
    select count(*)::int as messages, coalesce(sum(size), 0)::bigint::float8 as bytes, min(received_at) as oldest_received_at,
           (select count(*)::int from deliveries where status = 'pending') as pending_deliveries
    from spool_messages`
  return row
}

/** A delivery without its target (npm run ops -- job), read without a lock. */
export async function findDelivery(db: Db, id: string): Promise<Omit<Delivery, 'target'> & { createdAt: Date; finishedAt: Date | null } | undefined> {
  const [row] = await db<(Omit<Delivery, 'target'> & { createdAt: Date; finishedAt: Date | null })[]>`
    select id, spool_id, alias_id, kind, reverse_alias_id, status, attempts, last_error, created_at, finished_at
    from deliveries where id = ${id}`
  return row
}

/**
 * For the rest of the transaction the planner takes an index where there is one, and plans each
 * prepared statement once. The delivery tables churn (a row lives seconds), so their statistics
 * describe a few pages while the heap holds many more, dead ones: with a batch's ids as an array
 * (`= any`) the planner seq-scanned them and hashed (`npm run bench -- mx`: 0.6 scans of
 * `deliveries` per message, 400 rows read), where a lookup of one id always took the index. And it
 * planned those statements anew on every call (a plan for the array's length: 0.4 ms of planning
 * per batch), where the one plan by index serves any length.
 */
export async function preferIndexScans(db: Db): Promise<void> {
  await db`select set_config('enable_seqscan', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)`
}
