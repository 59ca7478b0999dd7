// target_bounces (issue 30): hard bounces in a row per (user, forward target), and the mark that
// stops forwards to the target once they reach the owner's threshold (bounce_settings, 5 unless
// set). A forward that reaches the target clears the count; "Send a test mail" that the target's
// server accepts, or the owner's re-enable, clears the mark.
import type { Db } from './client.ts'

export const DEFAULT_BOUNCE_THRESHOLD = 5

export interface TargetBounce {
  consecutive: number
  /** the target is marked: forwards to it are held */
  disabledAt: Date | null
}

/** One more hard bounce of `email` with the server's code and reason; marks the target at the threshold. */
export async function recordTargetBounce(db: Db, userId: string, email: string, code: number, reason: string): Promise<TargetBounce> {
  const [row] = await db<TargetBounce[]>`
    with t as (select coalesce((select threshold from bounce_settings where user_id = ${userId}), ${DEFAULT_BOUNCE_THRESHOLD}) as threshold)
    insert into target_bounces as b (user_id, email, consecutive, disabled_at, last_code, last_reason, last_at)
    values (${userId}, ${email.toLowerCase()}, 1, case when 1 >= (select threshold from t) then now() end, ${code}, ${reason}, now())
    on conflict (user_id, email) do update set
      consecutive = b.consecutive + 1, last_code = excluded.last_code, last_reason = excluded.last_reason, last_at = now(),
      disabled_at = coalesce(b.disabled_at, case when b.consecutive + 1 >= (select threshold from t) then now() end)
    returning consecutive, disabled_at`
  return row
}

/** A forward reached the target: its bounces are no longer in a row. */
export async function clearTargetBounces(db: Db, userId: string, email: string): Promise<void> {
  await db`update target_bounces set consecutive = 0 where user_id = ${userId} and email = ${email.toLowerCase()} and consecutive > 0 and disabled_at is null`
}

/** The mark and the count cleared (re-enabled, or a test mail accepted); false when the target was not marked. */
export async function enableBouncedTarget(db: Db, userId: string, email: string): Promise<boolean> {
  const rows = await db`
    update target_bounces set consecutive = 0, disabled_at = null
    where user_id = ${userId} and email = ${email.toLowerCase()} and disabled_at is not null returning email`
  return rows.length === 1
}

/** One more hard bounce of `email` reported for its test mail: the target is marked at once (it was marked before the test). */
export async function markTargetBounced(db: Db, userId: string, email: string, code: number, reason: string): Promise<void> {
  await db`
    insert into target_bounces as b (user_id, email, consecutive, disabled_at, last_code, last_reason, last_at)
    values (${userId}, ${email.toLowerCase()}, 1, now(), ${code}, ${reason}, now())
    on conflict (user_id, email) do update set
      consecutive = b.consecutive + 1, last_code = excluded.last_code, last_reason = excluded.last_reason, last_at = now(),
      disabled_at = coalesce(b.disabled_at, now())`
}

/**
 * The aliases whose owners have `email` as a confirmed target (at most 1,000, newest first): where a
 * bounce tag of the form issued before tags named their alias may point (Srs.legacyBounceTag).
 */
export async function findAliasesForwardingTo(db: Db, email: string): Promise<{ id: string; userId: string }[]> {
  return db<{ id: string; userId: string }[]>`
    select a.id, a.user_id from forward_targets f join aliases a on a.user_id = f.user_id
    where f.email = ${email.toLowerCase()} and f.confirmed_at is not null order by a.created_at desc limit 1000`
}

export interface BounceTagSubject {
  kind: 'alias' | 'test'
  /** the alias, or the test mail's email job */
  id: string
  userId: string
}

/**
 * Where a delivery report's bounce tag may point for `email` (workers/mail/srs.ts bounceTag): the
 * aliases and target test mails whose ids fall in the tag's range (its first 25 bits), of owners
 * with `email` as a confirmed target. Two primary-key range scans: about one row whatever the
 * number of aliases; the caller checks the tag's HMAC on each.
 */
export async function findBounceTagSubjects(db: Db, email: string, ids: { from: string; to: string }): Promise<BounceTagSubject[]> {
  return db<BounceTagSubject[]>`
    (select 'alias' as kind, a.id, a.user_id from aliases a
      join forward_targets f on f.user_id = a.user_id and f.email = ${email.toLowerCase()} and f.confirmed_at is not null
      where a.id between ${ids.from}::uuid and ${ids.to}::uuid limit 100)
    union all
    (select 'test' as kind, j.id, j.user_id from email_jobs j
      where j.id between ${ids.from}::uuid and ${ids.to}::uuid and j.purpose = 'target-test' and lower(j.recipient_email) = ${email.toLowerCase()} limit 100)`
}
