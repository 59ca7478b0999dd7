// api_keys: a user's keys for programs. Only a key's hash is stored (lib/api-key.ts).
import { MAX_API_KEYS } from '../shared/api-key-schemas.ts'
import type { Db } from './client.ts'

export interface ApiKeyRow {
  id: string
  name: string
  lookup: string
  createdAt: Date
  lastUsedAt: Date | null
}

export interface ApiKeyCandidate { id: string; userId: string; keyHash: Buffer; lastUsedAt: Date | null }

/** Holds the user's row until the transaction ends, so two creations count the keys one after the other. */
export async function lockUserForApiKeys(db: Db, userId: string): Promise<void> {
  await db`select 1 from users where id = ${userId} for update`
}

/** Inserts a key unless the user has MAX_API_KEYS already; undefined then. */
export async function insertApiKey(db: Db, userId: string, key: { name: string; lookup: string; hash: Buffer }): Promise<ApiKeyRow | undefined> {
  const [row] = await db<ApiKeyRow[]>`
    insert into api_keys (user_id, name, lookup, key_hash)
    select ${userId}, ${key.name}, ${key.lookup}, ${key.hash}
    where (select count(*) from api_keys where user_id = ${userId}) < ${MAX_API_KEYS}
    returning id, name, lookup, created_at, last_used_at`
  return row
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db<ApiKeyRow[]>`
    select id, name, lookup, created_at, last_used_at from api_keys where user_id = ${userId} order by created_at desc, id`
}

export async function deleteApiKey(db: Db, userId: string, keyId: string): Promise<boolean> {
  const rows = await db`delete from api_keys where id = ${keyId} and user_id = ${userId} returning id`
  return rows.length === 1
}

export async function deleteUserApiKeys(db: Db, userId: string): Promise<void> {
  await db`delete from api_keys where user_id = ${userId}`
}

/** The rows whose secret starts like the presented one; the caller compares hashes in constant time. */
export async function findApiKeyCandidates(db: Db, lookup: string): Promise<ApiKeyCandidate[]> {
  return db<ApiKeyCandidate[]>`select id, user_id, key_hash, last_used_at from api_keys where lookup = ${lookup} limit 10`
}

/** Records the day a key was last used (at most one write per key a day). */
export async function touchApiKey(db: Db, keyId: string): Promise<void> {
  await db`update api_keys set last_used_at = now() where id = ${keyId} and (last_used_at is null or last_used_at < date_trunc('day', now()))`
}
