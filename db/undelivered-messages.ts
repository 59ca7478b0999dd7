// Forwards that failed for good (issue #6): the owner's dashboard lists them for 30 days. A kept
// copy is armored age to the owner's key; the server never holds it in a form it can read.
import type { Db } from './client.ts'

export type UndeliveredStatus = 'kept' | 'retrying'
export type UndeliveredKind = 'email' | 'webhook'

export interface UndeliveredRow {
  id: string
  kind: UndeliveredKind
  aliasId: string
  alias: string
  domain: string
  target: string
  reason: string
  /** a copy was kept (encrypted); false for a report without content */
  kept: boolean
  status: UndeliveredStatus
  retries: number
  createdAt: Date
  expiresAt: Date
}

/** What a retry job reads: the copy itself and where it goes. */
export interface UndeliveredCopy {
  id: string
  userId: string
  aliasId: string
  target: string
  encrypted: string | null
  recipient: string | null
  status: UndeliveredStatus
  createdAt: Date
}

export interface NewUndelivered {
  /** 'email' unless given */
  kind?: UndeliveredKind
  userId: string
  aliasId: string
  target: string
  reason: string
  /** the server's reply code when it refused the forward for good (5xx) */
  code?: number
  /** armored age and the key it is encrypted to, or nulls to record the failure only */
  encrypted: string | null
  recipient: string | null
}

export async function insertUndeliveredMessage(db: Db, input: NewUndelivered): Promise<string> {
  const [row] = await db<{ id: string }[]>`
    insert into undelivered_messages (kind, user_id, alias_id, target, reason, code, encrypted, recipient, size)
    values (${input.kind ?? 'email'}, ${input.userId}, ${input.aliasId}, ${input.target}, ${input.reason}, ${input.code ?? null}, ${input.encrypted}, ${input.recipient},
            ${input.encrypted?.length ?? 0})
    returning id`
  return row.id
}

/** Bytes of kept copies the user holds now (the storage budget counts these). */
export async function sumUndeliveredBytes(db: Db, userId: string): Promise<number> {
  const [row] = await db<{ bytes: number }[]>`
    select coalesce(sum(size), 0)::bigint::float8 as bytes from undelivered_messages
    where user_id = ${userId} and expires_at > now()`
  return row.bytes
}

const listColumns = (db: Db) => db`
  u.id, u.kind, u.alias_id, a.alias, a.domain, u.target, u.reason, u.encrypted is not null as kept, u.status, u.retries,
  u.created_at, u.expires_at`

/** The newest `limit` (a flood of refused mail must not make the dashboard's list unbounded). */
export async function listUndeliveredMessages(db: Db, userId: string, limit = 200): Promise<UndeliveredRow[]> {
  return db<UndeliveredRow[]>`
    select ${listColumns(db)} from undelivered_messages u join aliases a on a.id = u.alias_id
    where u.user_id = ${userId} and u.expires_at > now()
    order by u.created_at desc, u.id limit ${limit}`
}

export async function findUndeliveredMessage(db: Db, userId: string, id: string): Promise<UndeliveredRow | undefined> {
  const [row] = await db<UndeliveredRow[]>`
    select ${listColumns(db)} from undelivered_messages u join aliases a on a.id = u.alias_id
    where u.id = ${id} and u.user_id = ${userId} and u.expires_at > now()`
  return row
}

/** Marks a kept copy as being retried; false when it is not there, holds no copy or is already retrying. */
export async function markUndeliveredRetrying(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db`
    update undelivered_messages set status = 'retrying', retries = retries + 1
    where id = ${id} and user_id = ${userId} and status = 'kept' and encrypted is not null and expires_at > now()
    returning id`
  return rows.length === 1
}

export async function deleteUndeliveredMessage(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db`delete from undelivered_messages where id = ${id} and user_id = ${userId} returning id`
  return rows.length === 1
}

/** Locks the row for a retry attempt, so two copies of one job never send it twice at once. */
export async function lockUndeliveredCopy(db: Db, id: string): Promise<UndeliveredCopy | undefined> {
  const [row] = await db<UndeliveredCopy[]>`
    select id, user_id, alias_id, target, encrypted, recipient, status, created_at
    from undelivered_messages where id = ${id} for update`
  return row
}

/** A retry that delivered: the copy has done its job. */
export async function removeDeliveredCopy(db: Db, id: string): Promise<void> {
  await db`delete from undelivered_messages where id = ${id}`
}

/** A retry that failed for good: back on the list with the new reason. */
export async function returnUndeliveredCopy(db: Db, id: string, reason: string): Promise<void> {
  await db`update undelivered_messages set status = 'kept', reason = ${reason} where id = ${id}`
}

/** Housekeeping: rows past their 30 days. */
export async function deleteExpiredUndeliveredMessages(db: Db): Promise<number> {
  const rows = await db`delete from undelivered_messages where expires_at <= now() returning id`
  return rows.length
}

/** One undelivered message as the operator sees it: ids and state, never the copy or its target. */
export interface UndeliveredEntry {
  id: string
  userId: string
  aliasId: string
  status: UndeliveredStatus
  kept: boolean
  size: number
  retries: number
  reason: string
  createdAt: Date
  expiresAt: Date
}

/** Every user's undelivered mail, oldest first, or the one of `id` (npm run ops -- dead-letters, job). */
export async function listAllUndelivered(db: Db, limit: number, id?: string): Promise<UndeliveredEntry[]> {
  return db<UndeliveredEntry[]>`
    select id, user_id, alias_id, status, encrypted is not null as kept, size, retries, reason, created_at, expires_at
    from undelivered_messages where ${id ?? null}::uuid is null or id = ${id ?? null}::uuid
    order by created_at, id limit ${limit}`
}
