// custom_domains: a user's own domains (issue 29). Owner functions filter by the user's id.
import type { RecordStates } from '../lib/domain-records.ts'
import { MAX_CUSTOM_DOMAINS } from '../shared/domain-schemas.ts'
import type { Db } from './client.ts'

export interface CustomDomainRow {
  id: string
  userId: string
  domain: string
  verificationToken: string
  dkimPrivateKeySealed: Buffer
  dkimRecord: string
  status: 'pending' | 'active'
  catchAll: boolean
  defaultTarget: string | null
  recordStates: RecordStates
  checkedAt: Date | null
  createdAt: Date
}

const COLUMNS = (db: Db) => db`id, user_id, domain, verification_token, dkim_private_key_sealed, dkim_record, status, catch_all, default_target, record_states, checked_at, created_at`

export interface NewCustomDomain { id: string; domain: string; verificationToken: string; dkimPrivateKeySealed: Buffer; dkimRecord: string }

/**
 * Adds a pending domain unless the user has it already, another account has it active, or the
 * user has MAX_CUSTOM_DOMAINS: undefined then (the caller tells which apart).
 */
export async function insertCustomDomain(db: Db, userId: string, d: NewCustomDomain): Promise<CustomDomainRow | undefined> {
  const [row] = await db<CustomDomainRow[]>`
    insert into custom_domains (id, user_id, domain, verification_token, dkim_private_key_sealed, dkim_record)
    select ${d.id}, ${userId}, ${d.domain}, ${d.verificationToken}, ${d.dkimPrivateKeySealed}, ${d.dkimRecord}
    where not exists (select 1 from custom_domains where domain = ${d.domain} and status = 'active')
      and (select count(*) from custom_domains where user_id = ${userId}) < ${MAX_CUSTOM_DOMAINS}
    on conflict (user_id, domain) do nothing
    returning ${COLUMNS(db)}`
  return row
}

/** Whether the name is active for an account other than `userId`. */
export async function domainOwnedByOther(db: Db, userId: string, domain: string): Promise<boolean> {
  const rows = await db`select 1 from custom_domains where domain = ${domain} and status = 'active' and user_id <> ${userId}`
  return rows.length > 0
}

export async function listCustomDomains(db: Db, userId: string): Promise<CustomDomainRow[]> {
  return db<CustomDomainRow[]>`select ${COLUMNS(db)} from custom_domains where user_id = ${userId} order by created_at, id`
}

export async function findCustomDomain(db: Db, userId: string, id: string): Promise<CustomDomainRow | undefined> {
  const [row] = await db<CustomDomainRow[]>`select ${COLUMNS(db)} from custom_domains where id = ${id} and user_id = ${userId}`
  return row
}

/** The user's active domain of that name (alias creation). */
export async function findActiveCustomDomain(db: Db, userId: string, domain: string): Promise<CustomDomainRow | undefined> {
  const [row] = await db<CustomDomainRow[]>`
    select ${COLUMNS(db)} from custom_domains where user_id = ${userId} and domain = ${domain} and status = 'active'`
  return row
}

/** The active domain of that name, whoever owns it (the MX, the DKIM signer). */
export async function findActiveDomainByName(db: Db, domain: string): Promise<CustomDomainRow | undefined> {
  const [row] = await db<CustomDomainRow[]>`select ${COLUMNS(db)} from custom_domains where domain = ${domain} and status = 'active'`
  return row
}

/**
 * Stores a check's outcome; `activate` makes a pending domain active (ownership seen). The partial
 * unique index refuses a second active owner: the statement then fails with 23505, which the
 * caller answers as "owned by another account".
 */
export async function recordDomainCheck(db: Db, id: string, states: RecordStates, activate: boolean): Promise<CustomDomainRow | undefined> {
  const [row] = await db<CustomDomainRow[]>`
    update custom_domains set record_states = ${db.json(states as never)}, checked_at = now(),
      status = case when ${activate} then 'active' else status end
    where id = ${id}
    returning ${COLUMNS(db)}`
  return row
}

export async function updateCustomDomainSettings(db: Db, userId: string, id: string, changes: { catchAll?: boolean; defaultTarget?: string | null }): Promise<CustomDomainRow | undefined> {
  const [row] = await db<CustomDomainRow[]>`
    update custom_domains set
      catch_all = coalesce(${changes.catchAll ?? null}::boolean, catch_all),
      default_target = case when ${changes.defaultTarget !== undefined} then ${changes.defaultTarget ?? null} else default_target end
    where id = ${id} and user_id = ${userId}
    returning ${COLUMNS(db)}`
  return row
}

export async function deleteCustomDomain(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db`delete from custom_domains where id = ${id} and user_id = ${userId} returning id`
  return rows.length === 1
}

/** Active domains not checked since `before` (the daily re-check), oldest first. */
export async function listDomainsToRecheck(db: Db, before: Date, limit: number): Promise<CustomDomainRow[]> {
  return db<CustomDomainRow[]>`
    select ${COLUMNS(db)} from custom_domains
    where status = 'active' and (checked_at is null or checked_at < ${before})
    order by checked_at nulls first limit ${limit}`
}

/** The names of the user's active domains (where their aliases can be made besides ours). */
export async function listActiveDomainNames(db: Db, userId: string): Promise<string[]> {
  const rows = await db<{ domain: string }[]>`select domain from custom_domains where user_id = ${userId} and status = 'active' order by created_at, id`
  return rows.map((r) => r.domain)
}
