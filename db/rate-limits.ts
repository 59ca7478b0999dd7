// Rate limit records (`RATE_LIMITS`). Each decision is one upsert that counts the attempt and tells
// whether it is allowed, so concurrent attempts cannot all pass a check made before any of them
// was counted: callers reserve first, do the expensive or secret-checking work second, and give
// the reservation back when the attempt turned out well.
import type { Db } from './client.ts'

export interface RateLimitHit {
  allowed: boolean
  count: number
  /** when the next attempt can be allowed */
  resetTime: Date
}

/** A fixed window: at most `limit` per `windowSeconds`; the row expires when its window ends. */
export async function hitRateLimit(
  db: Db,
  action: string,
  key: string,
  limit: number,
  windowSeconds: number,
  owner: { userId?: string; ipAddress?: string } = {},
  /** what this action counts for (a mail to several recipients counts each) */
  cost = 1,
): Promise<RateLimitHit> {
  const window = `${windowSeconds} seconds`
  const [row] = await db<{ count: number; expiresAt: Date }[]>`
    insert into rate_limits (action_type, key, user_id, ip_address, count, window_start, last_action, expires_at)
    values (${action}, ${key}, ${owner.userId ?? null}, ${owner.ipAddress ?? null}, ${cost}::int, now(), now(), now() + ${window}::interval)
    on conflict (action_type, key) do update set
      count = case when rate_limits.window_start < now() - ${window}::interval then ${cost}::int else rate_limits.count + ${cost}::int end,
      window_start = case when rate_limits.window_start < now() - ${window}::interval then now() else rate_limits.window_start end,
      expires_at = case when rate_limits.window_start < now() - ${window}::interval then now() else rate_limits.window_start end + ${window}::interval,
      last_action = now()
    returning count, expires_at`
  return { allowed: row.count <= limit, count: row.count, resetTime: row.expiresAt }
}

/** Gives back what hitRateLimit counted (it succeeded, or it was refused elsewhere): one attempt, or its cost. */
export async function releaseRateLimit(db: Db, action: string, key: string, cost = 1): Promise<void> {
  await db`update rate_limits set count = greatest(count - ${cost}::int, 0) where action_type = ${action} and key = ${key} and count > 0`
}

/**
 * Spaced attempts: the first `freeAttempts` go at once; from then on, after the k-th attempt the
 * next one is allowed only `min(firstWait · 2^(k − freeAttempts), maxWait)` seconds later. The
 * count is forgotten `forgetSeconds` after the last wait ended.
 */
export interface AttemptSpacing { freeAttempts: number; firstWaitSeconds: number; maxWaitSeconds: number; forgetSeconds: number }

/**
 * Counts an attempt if the key's wait has passed, in the one statement that decides. A refused
 * attempt is not counted, so it does not lengthen the wait.
 */
export async function reserveSpacedAttempt(db: Db, action: string, key: string, spacing: AttemptSpacing, owner: { ipAddress?: string } = {}): Promise<RateLimitHit> {
  const { freeAttempts, firstWaitSeconds, maxWaitSeconds, forgetSeconds } = spacing
  const forget = `${forgetSeconds} seconds`
  // The wait after the n-th attempt, in seconds (the exponent is clamped so 2^x stays finite).
  const wait = (n: ReturnType<Db['unsafe']> | number) => db`
    make_interval(secs => case when ${n} < ${freeAttempts}::int then 0
      else least(${firstWaitSeconds}::float8 * power(2, least(${n} - ${freeAttempts}::int, 40)), ${maxWaitSeconds}::float8) end)`
  const next = db.unsafe('(case when r.expires_at <= now() then 1 else r.count + 1 end)')
  const [row] = await db<{ allowed: boolean; count: number; nextAllowedAt: Date | null }[]>`
    with attempt as (
      insert into rate_limits as r (action_type, key, ip_address, count, window_start, last_action, next_allowed_at, expires_at)
      values (${action}, ${key}, ${owner.ipAddress ?? null}, 1, now(), now(), now() + ${wait(1)}, now() + ${wait(1)} + ${forget}::interval)
      on conflict (action_type, key) do update set
        count = ${next},
        window_start = case when r.expires_at <= now() then now() else r.window_start end,
        last_action = now(),
        next_allowed_at = now() + ${wait(next)},
        expires_at = now() + ${wait(next)} + ${forget}::interval
      where r.next_allowed_at is null or r.next_allowed_at <= now() or r.expires_at <= now()
      returning count, next_allowed_at
    )
    select true as allowed, count, next_allowed_at from attempt
    union all
    select false, count, next_allowed_at from rate_limits
    where action_type = ${action} and key = ${key} and not exists (select from attempt)`
  // No row: a concurrent first attempt holds it and this statement's snapshot predates it.
  if (!row) return { allowed: false, count: freeAttempts, resetTime: new Date(Date.now() + firstWaitSeconds * 1000) }
  return { allowed: row.allowed, count: row.count, resetTime: row.nextAllowedAt ?? new Date() }
}

export async function clearRateLimit(db: Db, action: string, key: string): Promise<void> {
  await db`delete from rate_limits where action_type = ${action} and key = ${key}`
}

/** Retention: a record is deleted as soon as its window (or its wait and forget period) has passed. */
export async function deleteExpiredRateLimits(db: Db): Promise<number> {
  const rows = await db`delete from rate_limits where expires_at <= now() returning id`
  return rows.length
}
