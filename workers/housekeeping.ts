// housekeeping: deletes what has expired (sessions, wallet nonces, old rate-limit windows,
// undelivered mail past its 30 days).
// Scheduled once a day by the delivery process; running it twice is harmless.
import type { Sql } from '../db/client.ts'
import { deleteExpiredRateLimits } from '../db/rate-limits.ts'
import { deleteExpiredSessions } from '../db/sessions.ts'
import { deleteExpiredUndeliveredMessages } from '../db/undelivered-messages.ts'
import { deleteExpiredWalletNonces } from '../db/wallet-nonces.ts'
import { log } from '../lib/log.ts'

export const HOUSEKEEPING_CRON = '17 3 * * *' // 03:17 UTC daily

export async function housekeeping(sql: Sql): Promise<void> {
  const sessions = await deleteExpiredSessions(sql)
  const nonces = await deleteExpiredWalletNonces(sql)
  const rateLimits = await deleteExpiredRateLimits(sql)
  const undelivered = await deleteExpiredUndeliveredMessages(sql)
  log.info('housekeeping.done', { sessions, nonces, rateLimits, undelivered })
}
