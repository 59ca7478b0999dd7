// Reverse aliases: one per (alias, outside contact), the address a forwarded message's From and
// Reply-To point at, and the one the user replies to.
import type { Db } from './client.ts'

export interface ReverseAlias {
  id: string
  aliasId: string
  localPart: string
  domain: string
  contactAddress: string
  contactName: string | null
}

export interface NewReverseAlias { localPart: string; contactAddress: string; contactName: string | null }

/**
 * The reverse aliases of several contacts of one alias in one statement, each made with its
 * `localPart` when there was none yet: the made rows come from the insert, the known ones from the
 * select, which sees the table as the statement began (so never a row the insert made). A contact
 * that a concurrent delivery made after that is in neither; findContactReverseAliases reads it.
 */
export async function upsertReverseAliases(db: Db, aliasId: string, domain: string, contacts: NewReverseAlias[]): Promise<ReverseAlias[]> {
  if (contacts.length === 0) return []
  return db<ReverseAlias[]>`
    with made as (
      insert into reverse_aliases (alias_id, local_part, domain, contact_address, contact_name)
      select ${aliasId}, c.local_part, ${domain}, c.contact_address, c.contact_name
      from unnest(${contacts.map((c) => c.localPart)}::text[], ${contacts.map((c) => c.contactAddress)}::text[], ${contacts.map((c) => c.contactName)}::text[])
        as c(local_part, contact_address, contact_name)
      on conflict (alias_id, lower(contact_address)) do nothing
      returning id, alias_id, local_part, domain, contact_address, contact_name
    )
    select * from made
    union all
    select id, alias_id, local_part, domain, contact_address, contact_name from reverse_aliases
    where alias_id = ${aliasId} and lower(contact_address) in (select lower(a) from unnest(${contacts.map((c) => c.contactAddress)}::text[]) a)`
}

export async function findContactReverseAliases(db: Db, aliasId: string, contactAddresses: string[]): Promise<ReverseAlias[]> {
  if (contactAddresses.length === 0) return []
  return db<ReverseAlias[]>`
    select id, alias_id, local_part, domain, contact_address, contact_name from reverse_aliases
    where alias_id = ${aliasId} and lower(contact_address) in (select lower(a) from unnest(${contactAddresses}::text[]) a)`
}

export async function findReverseAlias(db: Db, localPart: string, domain: string): Promise<ReverseAlias | undefined> {
  const [row] = await db<ReverseAlias[]>`
    select id, alias_id, local_part, domain, contact_address, contact_name
    from reverse_aliases where local_part = lower(${localPart}) and domain = ${domain}`
  return row
}

export async function getReverseAlias(db: Db, id: string): Promise<ReverseAlias | undefined> {
  const [row] = await db<ReverseAlias[]>`
    select id, alias_id, local_part, domain, contact_address, contact_name from reverse_aliases where id = ${id}`
  return row
}

/** The reverse aliases among `localParts` that belong to one of the user's aliases. */
export async function findUserReverseAliases(db: Db, userId: string, localParts: string[]): Promise<ReverseAlias[]> {
  if (localParts.length === 0) return []
  return db<ReverseAlias[]>`
    select r.id, r.alias_id, r.local_part, r.domain, r.contact_address, r.contact_name
    from reverse_aliases r join aliases a on a.id = r.alias_id
    where a.user_id = ${userId} and r.local_part = any(${localParts.map((p) => p.toLowerCase())}::text[])`
}
