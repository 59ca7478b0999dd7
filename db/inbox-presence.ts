// inbox_presence: when each user last read their mail (GET /api/emails), so the sync process
// holds IMAP IDLE for the accounts of users with an open inbox (migration 0032).
import type { Db } from './client.ts'

/** Seen now; written only when the last mark is older than `throttleSeconds`. */
export async function recordInboxSeen(db: Db, userId: string, throttleSeconds: number): Promise<void> {
  await db`
    insert into inbox_presence (user_id, seen_at) values (${userId}, now())
    on conflict (user_id) do update set seen_at = excluded.seen_at
    where inbox_presence.seen_at < now() - make_interval(secs => ${throttleSeconds})`
}

/** Accounts of users seen within `activeSeconds` that can be synced, most recently seen first. */
export async function recentlyActiveProviderIds(db: Db, activeSeconds: number, limit: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select p.id from inbox_presence s join email_providers p on p.user_id = s.user_id
    where s.seen_at > now() - make_interval(secs => ${activeSeconds}) and p.is_active and not p.auth_failed and p.state <> 'connecting'
    order by s.seen_at desc, p.id limit ${limit}`
  return rows.map((r) => r.id)
}
