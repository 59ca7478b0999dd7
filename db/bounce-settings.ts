// bounce_settings (issue 30): per user, the consecutive-bounce threshold that marks a target, and
// the state of the once-a-day bounce notice (when it last went, since when bounces wait for one).
import type { Db } from './client.ts'
import { DEFAULT_BOUNCE_THRESHOLD } from './target-bounces.ts'

export async function getBounceThreshold(db: Db, userId: string): Promise<number> {
  const [row] = await db<{ threshold: number }[]>`select threshold from bounce_settings where user_id = ${userId}`
  return row?.threshold ?? DEFAULT_BOUNCE_THRESHOLD
}

export async function saveBounceThreshold(db: Db, userId: string, threshold: number): Promise<void> {
  await db`
    insert into bounce_settings (user_id, threshold) values (${userId}, ${threshold})
    on conflict (user_id) do update set threshold = excluded.threshold`
}

/**
 * A bounce waits for the user's next notice. Returns when that notice is due (a day after the
 * last one, or now) when this bounce is the first to wait, so the caller queues one job for it;
 * undefined when a notice is already waiting.
 */
export async function markBounceNoticePending(db: Db, userId: string): Promise<Date | undefined> {
  const [row] = await db<{ due: Date }[]>`
    insert into bounce_settings as s (user_id, pending_since) values (${userId}, now())
    on conflict (user_id) do update set pending_since = now() where s.pending_since is null
    returning greatest(now(), coalesce(s.notified_at + interval '1 day', now())) as due`
  return row?.due
}

/**
 * Takes the waiting notice when it is due (none in the last day): the notice is marked sent and
 * the time the bounces it covers began returned; undefined when none waits or it is not due yet.
 */
export async function claimBounceNotice(db: Db, userId: string): Promise<{ since: Date } | undefined> {
  const [row] = await db<{ since: Date }[]>`
    with old as (select user_id, pending_since from bounce_settings where user_id = ${userId} for update)
    update bounce_settings s set notified_at = now(), pending_since = null from old
    where s.user_id = old.user_id and old.pending_since is not null
      and (s.notified_at is null or s.notified_at <= now() - interval '1 day')
    returning old.pending_since as since`
  return row
}
