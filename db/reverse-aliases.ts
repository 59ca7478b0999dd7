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

/**
 * The reverse alias of (alias, contact), made with `localPart` when there was none yet. Reads
 * first: the common case (a known contact) takes no lock, so concurrent deliveries never queue.
 */
export async function upsertReverseAlias(
  db: Db,
  input: { aliasId: string; domain: string; localPart: string; contactAddress: string; contactName: string | null },
): Promise<ReverseAlias> {
  const existing = await findContactReverseAlias(db, input.aliasId, input.contactAddress)
  if (existing) return existing
  const [row] = await db<ReverseAlias[]>`
    insert into reverse_aliases (alias_id, local_part, domain, contact_address, contact_name)
    values (${input.aliasId}, ${input.localPart}, ${input.domain}, ${input.contactAddress}, ${input.contactName})
    on conflict (alias_id, lower(contact_address)) do nothing
    returning id, alias_id, local_part, domain, contact_address, contact_name`
  return row ?? (await findContactReverseAlias(db, input.aliasId, input.contactAddress))! // made by a concurrent delivery
}

export async function findContactReverseAlias(db: Db, aliasId: string, contactAddress: string): Promise<ReverseAlias | undefined> {
  const [row] = await db<ReverseAlias[]>`
    select id, alias_id, local_part, domain, contact_address, contact_name
    from reverse_aliases where alias_id = ${aliasId} and lower(contact_address) = lower(${contactAddress})`
  return row
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
