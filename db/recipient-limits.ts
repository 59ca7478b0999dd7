// How many recipients one user may send to, per hour and per day (RATE_LIMITS `recipients-hour`,
// `recipients-day`), counted over compose and the submission server together. Each recipient is
// counted before its mail is queued, in one atomic upsert per window (a mail to several people
// counts them all at once), so requests running at once can never pass the limit between them.
// A mail refused gives its recipients back, so a refused mail to many never uses up the budget.
// One message's own cap (To and Cc together) is MAX_MESSAGE_RECIPIENTS (shared/recipient-list.ts).
import type { Db } from './client.ts'
import { hitRateLimit, releaseRateLimit, type RateLimitHit } from './rate-limits.ts'
import type { Config } from '../lib/config.ts'

export type RecipientCheck = { allowed: true } | { allowed: false; hit: RateLimitHit; message: string }

const WINDOWS = [['recipients-hour', 'hour'], ['recipients-day', 'day']] as const

export async function countRecipients(db: Db, config: Pick<Config, 'rateLimits'>, userId: string, recipients = 1): Promise<RecipientCheck> {
  for (const [i, [action, name]] of WINDOWS.entries()) {
    const rule = config.rateLimits[action]
    const hit = await hitRateLimit(db, action, userId, rule.limit, rule.seconds, { userId }, recipients)
    if (!hit.allowed) {
      for (const [counted] of WINDOWS.slice(0, i + 1)) await releaseRateLimit(db, counted, userId, recipients)
      return { allowed: false, hit, message: `You have reached your sending limit of ${rule.limit} recipients per ${name}. Try again after ${hit.resetTime.toISOString().slice(0, 16).replace('T', ' ')} UTC.` }
    }
  }
  return { allowed: true }
}
