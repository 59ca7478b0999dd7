// aliases as their owner manages them. Every function takes the owner's id and filters by it.
import type { AliasMadeBy, AliasView, SpamHandling } from '../shared/alias-schemas.ts'
import type { Db } from './client.ts'

/** The alias as the API shows it, with dates as read and the summed counters as numeric strings. */
export interface AliasRow extends Omit<AliasView, 'createdAt' | 'updatedAt' | 'counters'> {
  createdAt: Date
  updatedAt: Date
  forwarded: string
  replied: string
  dropped: string
  failed: string
  spam: string
}

// Counters are sharded (up to 8 rows per alias): summed per alias, so an alias stays one row.
const select = (db: Db) => db`
  select a.id, a.user_id, a.alias, a.domain, a.forward_to, a.last_forward_to, a.active, a.encrypt_forwarded, a.spam_handling, a.notes,
         a.made_by, a.hostname, a.created_at, a.updated_at,
         coalesce(c.forwarded, 0) as forwarded, coalesce(c.replied, 0) as replied,
         coalesce(c.dropped, 0) as dropped, coalesce(c.failed, 0) as failed, coalesce(c.spam, 0) as spam
  from aliases a left join lateral (
    select sum(forwarded) as forwarded, sum(replied) as replied, sum(dropped) as dropped, sum(failed) as failed, sum(spam) as spam
    from alias_counters where alias_id = a.id
  ) c on true`

export async function listAliases(db: Db, userId: string): Promise<AliasRow[]> {
  return db<AliasRow[]>`${select(db)} where a.user_id = ${userId} order by a.created_at desc, a.id`
}

export async function findAlias(db: Db, userId: string, aliasId: string): Promise<AliasRow | undefined> {
  const [row] = await db<AliasRow[]>`${select(db)} where a.user_id = ${userId} and a.id = ${aliasId}`
  return row
}

export interface NewAlias {
  alias: string
  domain: string
  forwardTo: string
  notes?: string | null
  /** the app that made it through an API key, and the website it was made for */
  madeBy?: AliasMadeBy | null
  hostname?: string | null
}

/**
 * Inserts an alias with its id chosen by the caller, which sealed the webhook secret for that id
 * (lib/webhook-secret.ts); undefined when the address is taken now or was ever deleted.
 */
export async function insertAlias(db: Db, userId: string, a: NewAlias & { id: string; webhookSecretSealed: Buffer }): Promise<string | undefined> {
  try {
    const [row] = await db<{ id: string }[]>`
      insert into aliases (id, user_id, alias, domain, forward_to, notes, webhook_secret_sealed, made_by, hostname)
      values (${a.id}, ${userId}, ${a.alias}, ${a.domain}, ${a.forwardTo}, ${a.notes || null}, ${a.webhookSecretSealed}, ${a.madeBy ?? null}, ${a.hostname || null})
      on conflict do nothing returning id`
    return row?.id
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return undefined // deleted address (trigger)
    throw error
  }
}

export interface AliasChanges {
  alias?: string
  forwardTo?: string
  lastForwardTo?: string | null
  notes?: string | null
  active?: boolean
  encryptForwarded?: boolean
  spamHandling?: SpamHandling
}

/** Applies the changes; false when the new address is taken. */
export async function updateAlias(db: Db, userId: string, aliasId: string, changes: AliasChanges): Promise<boolean> {
  const set: Record<string, unknown> = {}
  if (changes.alias !== undefined) set.alias = changes.alias
  if (changes.forwardTo !== undefined) set.forward_to = changes.forwardTo
  if (changes.lastForwardTo !== undefined) set.last_forward_to = changes.lastForwardTo
  if (changes.notes !== undefined) set.notes = changes.notes || null
  if (changes.active !== undefined) set.active = changes.active
  if (changes.encryptForwarded !== undefined) set.encrypt_forwarded = changes.encryptForwarded
  if (changes.spamHandling !== undefined) set.spam_handling = changes.spamHandling
  try {
    await db`update aliases set ${db(set)}, updated_at = now() where id = ${aliasId} and user_id = ${userId}`
    return true
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return false
    throw error
  }
}

export async function deleteAlias(db: Db, userId: string, aliasId: string): Promise<boolean> {
  const rows = await db`delete from aliases where id = ${aliasId} and user_id = ${userId} returning id`
  return rows.length === 1
}

export async function countAliasesCreatedSince(db: Db, userId: string, since: Date): Promise<number> {
  const [row] = await db<{ count: number }[]>`select count(*)::int as count from aliases where user_id = ${userId} and created_at >= ${since}`
  return row.count
}

/** The user's aliases that have SMTP credentials, for the compose page's sender list. */
export async function listAliasesWithSmtp(db: Db, userId: string): Promise<{ id: string; alias: string; domain: string }[]> {
  return db`
    select distinct a.id, a.alias, a.domain, a.created_at from aliases a
    join smtp_credentials s on s.alias_id = a.id and s.active
    where a.user_id = ${userId} and a.active
    order by a.created_at desc`
}

export interface AliasPageFilter {
  /** case-insensitive substring of the address or the notes */
  search?: string
  active?: boolean
}

const pageWhere = (db: Db, userId: string, f: AliasPageFilter) => db`
  a.user_id = ${userId}
  ${f.active === undefined ? db`` : db`and a.active = ${f.active}`}
  ${f.search ? db`and strpos(lower(a.alias || '@' || a.domain || ' ' || coalesce(a.notes, '')), lower(${f.search})) > 0` : db``}`

/** One page of the user's aliases, newest first (the compat APIs' lists). */
export async function listAliasPage(db: Db, userId: string, f: AliasPageFilter & { limit: number; offset: number }): Promise<AliasRow[]> {
  return db<AliasRow[]>`${select(db)} where ${pageWhere(db, userId, f)} order by a.created_at desc, a.id limit ${f.limit} offset ${f.offset}`
}

export async function countAliasPage(db: Db, userId: string, f: AliasPageFilter): Promise<number> {
  const [row] = await db<{ count: number }[]>`select count(*)::int as count from aliases a where ${pageWhere(db, userId, f)}`
  return row.count
}

/** The user's newest alias made for a website (SimpleLogin's alias/options recommends it). */
export async function findAliasForHostname(db: Db, userId: string, hostname: string): Promise<{ alias: string; domain: string; hostname: string } | undefined> {
  const [row] = await db<{ alias: string; domain: string; hostname: string }[]>`
    select alias, domain, hostname from aliases where user_id = ${userId} and hostname = ${hostname.toLowerCase()}
    order by created_at desc limit 1`
  return row
}
