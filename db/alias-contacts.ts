// An alias's contacts (issue 30): the outside addresses that have a reverse alias on it, with
// their forwards, last mail and whether the owner blocked them. Blocking is by the From address
// (a contact is keyed by it); the MX decides (workers/mail/sender-blocks.ts).
import type { Db } from './client.ts'

export interface AliasContact {
  id: string
  contactAddress: string
  contactName: string | null
  /** the first mail that named it (its reverse alias was made then) */
  createdAt: Date
  /** the last mail from it that was forwarded; null when it only ever appeared in To/Cc */
  lastMailAt: Date | null
  forwarded: string
  blocked: string
  blockedAt: Date | null
}

/** The alias's contacts, most recent mail first; the alias must be the user's (else none). */
export async function listAliasContacts(db: Db, userId: string, aliasId: string, limit = 500): Promise<AliasContact[]> {
  return db<AliasContact[]>`
    select r.id, r.contact_address, r.contact_name, r.created_at, r.last_mail_at, r.forwarded, r.blocked, r.blocked_at
    from reverse_aliases r join aliases a on a.id = r.alias_id
    where r.alias_id = ${aliasId} and a.user_id = ${userId}
    order by coalesce(r.last_mail_at, r.created_at) desc, r.id limit ${limit}`
}

/** Whether the contact is one of the user's alias's. */
export async function isOwnContact(db: Db, userId: string, aliasId: string, contactId: string): Promise<boolean> {
  const rows = await db`select 1 from reverse_aliases r join aliases a on a.id = r.alias_id where r.id = ${contactId} and r.alias_id = ${aliasId} and a.user_id = ${userId}`
  return rows.length > 0
}

/** Blocks or unblocks one of the user's contacts; undefined when it is not theirs. */
export async function setContactBlocked(db: Db, userId: string, aliasId: string, contactId: string, blocked: boolean): Promise<AliasContact | undefined> {
  const [row] = await db<AliasContact[]>`
    update reverse_aliases r set blocked_at = case when ${blocked}::boolean then coalesce(r.blocked_at, now()) end
    from aliases a
    where r.id = ${contactId} and r.alias_id = ${aliasId} and a.id = r.alias_id and a.user_id = ${userId}
    returning r.id, r.contact_address, r.contact_name, r.created_at, r.last_mail_at, r.forwarded, r.blocked, r.blocked_at`
  return row
}

/** A link token's contact with its alias and owner (the token is the authority: no user to check). */
export async function findContactForLink(db: Db, contactId: string): Promise<{ id: string; aliasId: string; userId: string; contactAddress: string; blockedAt: Date | null } | undefined> {
  const [row] = await db<{ id: string; aliasId: string; userId: string; contactAddress: string; blockedAt: Date | null }[]>`
    select r.id, r.alias_id, a.user_id, r.contact_address, r.blocked_at from reverse_aliases r join aliases a on a.id = r.alias_id where r.id = ${contactId}`
  return row
}

/** Blocks a contact (a link did it); false when it was blocked already. */
export async function blockContact(db: Db, contactId: string): Promise<boolean> {
  const rows = await db`update reverse_aliases set blocked_at = now() where id = ${contactId} and blocked_at is null returning id`
  return rows.length > 0
}

export async function unblockContact(db: Db, contactId: string): Promise<void> {
  await db`update reverse_aliases set blocked_at = null where id = ${contactId}`
}

export interface SenderBlock { aliasId: string; contactId: string; reply: 'refuse' | 'drop' }

/** Which of these aliases block `address` (compared as the contact key is), with each owner's way of answering. */
export async function findSenderBlocks(db: Db, aliasIds: string[], address: string): Promise<SenderBlock[]> {
  if (aliasIds.length === 0) return []
  return db<SenderBlock[]>`
    select r.alias_id, r.id as contact_id, coalesce(s.blocked_reply, 'refuse') as reply
    from reverse_aliases r join aliases a on a.id = r.alias_id left join sender_block_settings s on s.user_id = a.user_id
    where r.alias_id = any(${aliasIds}::uuid[]) and lower(r.contact_address) = lower(${address}) and r.blocked_at is not null`
}

/** Mail refused or dropped from blocked contacts, summed per contact. */
export async function countBlockedMail(db: Db, contactIds: string[]): Promise<void> {
  await bumpContacts(db, contactIds, 'blocked')
}

/** Forwards sent from contacts (their From), summed per contact. */
export async function countContactForwards(db: Db, contactIds: string[]): Promise<void> {
  await bumpContacts(db, contactIds, 'forwarded')
}

/** Rows locked in id order first, as every batch does, so two batches naming the same contacts never deadlock. */
async function bumpContacts(db: Db, contactIds: string[], column: 'blocked' | 'forwarded'): Promise<void> {
  if (contactIds.length === 0) return
  const mailAt = column === 'forwarded'
  await db`
    with c as (select id, count(*)::int as n from unnest(${contactIds}::uuid[]) id group by id),
    locked as (select r.id from reverse_aliases r join c on c.id = r.id order by r.id for update of r)
    update reverse_aliases r set ${db(column)} = r.${db(column)} + c.n, last_mail_at = case when ${mailAt}::boolean then now() else r.last_mail_at end
    from c join locked l on l.id = c.id where r.id = c.id`
}
