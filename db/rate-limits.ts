// Fixed-window counters (spec §3 rate limit record). One upsert counts an action and tells
// whether it is still within the limit.
import type { Db } from './client.ts'

export interface RateLimitHit {
  allowed: boolean
  count: number
  resetTime: Date
}

export async function hitRateLimit(
  db: Db,
  action: string,
  key: string,
  limit: number,
  windowSeconds: number,
  owner: { userId?: string; ipAddress?: string } = {},
): Promise<RateLimitHit> {
  const window = `${windowSeconds} seconds`
  const [row] = await db<{ count: number; windowStart: Date }[]>`
    insert into rate_limits (action_type, key, user_id, ip_address, count, window_start, last_action)
    values (${action}, ${key}, ${owner.userId ?? null}, ${owner.ipAddress ?? null}, 1, now(), now())
    on conflict (action_type, key) do update set
      count = case when rate_limits.window_start < now() - ${window}::interval then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - ${window}::interval then now() else rate_limits.window_start end,
      last_action = now()
    returning count, window_start`
  return { allowed: row.count <= limit, count: row.count, resetTime: new Date(row.windowStart.getTime() + windowSeconds * 1000) }
}

/** How an action stands without counting it. */
export async function peekRateLimit(db: Db, action: string, key: string, limit: number, windowSeconds: number): Promise<RateLimitHit> {
  const [row] = await db<{ count: number; windowStart: Date }[]>`
    select count, window_start from rate_limits
    where action_type = ${action} and key = ${key} and window_start >= now() - ${`${windowSeconds} seconds`}::interval`
  if (!row) return { allowed: true, count: 0, resetTime: new Date() }
  return { allowed: row.count < limit, count: row.count, resetTime: new Date(row.windowStart.getTime() + windowSeconds * 1000) }
}

export async function clearRateLimit(db: Db, action: string, key: string): Promise<void> {
  await db`delete from rate_limits where action_type = ${action} and key = ${key}`
}

export async function deleteStaleRateLimits(db: Db, olderThanSeconds = 86400): Promise<number> {
  const rows = await db`delete from rate_limits where last_action < now() - ${`${olderThanSeconds} seconds`}::interval returning id`
  return rows.length
}
