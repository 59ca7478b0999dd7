import type { Context } from 'hono'
import { hitRateLimit, type RateLimitHit } from '../../db/rate-limits.ts'
import type { RateLimitAction } from '../../lib/config.ts'
import type { AppEnv } from '../context.ts'

/** Counts one `action` for `key` with the configured threshold. */
export function countAction<E extends AppEnv>(c: Context<E>, action: RateLimitAction, key: string, owner: { userId?: string; ipAddress?: string } = {}): Promise<RateLimitHit> {
  const rule = c.var.deps.config.rateLimits[action]
  return hitRateLimit(c.var.deps.sql, action, key, rule.limit, rule.seconds, owner)
}

/** 429 with the shape the browser expects: { rateLimited, message, resetTime }. */
export function tooMany(c: Context, hit: RateLimitHit, message = 'Too many attempts. Please try again later.') {
  const seconds = Math.max(1, Math.ceil((hit.resetTime.getTime() - Date.now()) / 1000))
  c.header('Retry-After', String(seconds))
  return c.json({ rateLimited: true as const, message, resetTime: hit.resetTime.toISOString() }, 429)
}
