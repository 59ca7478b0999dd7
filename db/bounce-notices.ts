// bounce_notices (issue 30): the once-a-day notice of forwards refused for good, kept for the
// dashboard until dismissed; and what it lists, read from undelivered_messages (code and reason per
// alias and target, never content).
import type { Db } from './client.ts'
import type { BounceEntryView } from '../shared/bounce-schemas.ts'

/** Per alias and target: the latest code and reason, how many, whether the target is now marked (or a reply's contact). */
export type BounceEntry = BounceEntryView

export interface BounceNotice {
  id: string
  entries: BounceEntry[]
  createdAt: Date
}

/** Hard bounces recorded for the user since `since`, per alias and target with the latest code and reason (at most 50). */
export async function listBouncesSince(db: Db, userId: string, since: Date): Promise<BounceEntry[]> {
  return db<BounceEntry[]>`
    select a.alias || '@' || a.domain as alias, u.target,
      (array_agg(u.code order by u.created_at desc))[1]::int as code,
      (array_agg(u.reason order by u.created_at desc))[1] as reason,
      count(*)::int as count,
      exists (select 1 from target_bounces b where b.user_id = u.user_id and b.email = lower(u.target) and b.disabled_at is not null) as disabled
    from undelivered_messages u join aliases a on a.id = u.alias_id
    where u.user_id = ${userId} and u.code is not null and u.created_at >= ${since}
    group by a.alias, a.domain, u.user_id, u.target
    order by max(u.created_at) desc limit 50`
}

export async function insertBounceNotice(db: Db, userId: string, entries: BounceEntry[]): Promise<string> {
  const [row] = await db<{ id: string }[]>`
    insert into bounce_notices (user_id, entries) values (${userId}, ${db.json(entries as never)}) returning id`
  return row.id
}

/** The notices the dashboard shows (not dismissed), newest first. */
export async function listOpenBounceNotices(db: Db, userId: string): Promise<BounceNotice[]> {
  return db<BounceNotice[]>`
    select id, entries, created_at from bounce_notices
    where user_id = ${userId} and closed_at is null order by created_at desc limit 5`
}

export async function closeBounceNotice(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db`update bounce_notices set closed_at = now() where id = ${id} and user_id = ${userId} and closed_at is null returning id`
  return rows.length === 1
}
