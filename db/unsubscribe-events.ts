// unsubscribe_events: what an unsubscribe or block link did without a sign-in (issue 30), shown on
// the owner's dashboard with Undo until they undo or dismiss it.
import type { Db } from './client.ts'

export type UnsubscribeAction = 'pause' | 'block'
export type UnsubscribeVia = 'one-click' | 'link' | 'mailto'

export interface UnsubscribeEvent {
  id: string
  aliasId: string
  alias: string
  domain: string
  contactId: string | null
  contactAddress: string | null
  action: UnsubscribeAction
  via: UnsubscribeVia
  createdAt: Date
}

export async function insertUnsubscribeEvent(db: Db, e: { userId: string; aliasId: string; contactId: string | null; action: UnsubscribeAction; via: UnsubscribeVia }): Promise<void> {
  await db`insert into unsubscribe_events (user_id, alias_id, reverse_alias_id, action, via) values (${e.userId}, ${e.aliasId}, ${e.contactId}, ${e.action}, ${e.via})`
}

/** The user's events not yet undone or dismissed, newest first. */
export async function listOpenUnsubscribeEvents(db: Db, userId: string): Promise<UnsubscribeEvent[]> {
  return db<UnsubscribeEvent[]>`
    select e.id, e.alias_id, a.alias, a.domain, e.reverse_alias_id as contact_id, r.contact_address, e.action, e.via, e.created_at
    from unsubscribe_events e join aliases a on a.id = e.alias_id left join reverse_aliases r on r.id = e.reverse_alias_id
    where e.user_id = ${userId} and e.closed_at is null order by e.created_at desc, e.id limit 50`
}

/** Closes one of the user's open events; undefined when it is not theirs or already closed. */
export async function closeUnsubscribeEvent(db: Db, userId: string, id: string): Promise<{ aliasId: string; contactId: string | null; action: UnsubscribeAction } | undefined> {
  const [row] = await db<{ aliasId: string; contactId: string | null; action: UnsubscribeAction }[]>`
    update unsubscribe_events set closed_at = now() where id = ${id} and user_id = ${userId} and closed_at is null
    returning alias_id, reverse_alias_id as contact_id, action`
  return row
}
