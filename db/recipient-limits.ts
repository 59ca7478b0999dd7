// How many recipients one user may send to, per hour and per day (RATE_LIMITS `recipients-hour`,
// `recipients-day`), counted over compose and the submission server together. Each recipient is
// counted before its mail is queued, in one atomic upsert per window, so requests running at once
// can never pass the limit between them.
import type { Db } from './client.ts'
import { hitRateLimit, type RateLimitHit } from './rate-limits.ts'
import type { Config } from '../lib/config.ts'

export type RecipientCheck = { allowed: true } | { allowed: false; hit: RateLimitHit; message: string }

const WINDOWS = [['recipients-hour', 'hour'], ['recipients-day', 'day']] as const

export async function countRecipient(db: Db, config: Pick<Config, 'rateLimits'>, userId: string): Promise<RecipientCheck> {
  for (const [action, name] of WINDOWS) {
    const rule = config.rateLimits[action]
    const hit = await hitRateLimit(db, action, userId, rule.limit, rule.seconds, { userId })
    if (!hit.allowed) {
      return { allowed: false, hit, message: `You have reached your sending limit of ${rule.limit} recipients per ${name}. Try again after ${hit.resetTime.toISOString().slice(0, 16).replace('T', ' ')} UTC.` }
    }
  }
  return { allowed: true }
}
