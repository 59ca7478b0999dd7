// housekeeping: deletes what has expired (sessions, wallet nonces, rate-limit records whose
// window has passed, undelivered mail past its 30 days, finished outgoing mail records past
// FINISHED_EMAIL_JOB_DAYS). Scheduled hourly by the delivery process, so a rate-limit record (an
// IP or e-mail address) outlives its window by at most an hour; running it twice is harmless.
import type { Sql } from '../db/client.ts'
import { deleteFinishedEmailJobs } from '../db/email-jobs.ts'
import { deleteExpiredRateLimits } from '../db/rate-limits.ts'
import { deleteExpiredSessions } from '../db/sessions.ts'
import { deleteExpiredUndeliveredMessages } from '../db/undelivered-messages.ts'
import { deleteExpiredWalletNonces } from '../db/wallet-nonces.ts'
import { log } from '../lib/log.ts'
import { FINISHED_EMAIL_JOB_DAYS } from '../lib/retention-periods.ts'

export const HOUSEKEEPING_CRON = '17 * * * *' // hourly at :17 (the privacy page promises "within an hour")

export async function housekeeping(sql: Sql): Promise<void> {
  const sessions = await deleteExpiredSessions(sql)
  const nonces = await deleteExpiredWalletNonces(sql)
  const rateLimits = await deleteExpiredRateLimits(sql)
  const undelivered = await deleteExpiredUndeliveredMessages(sql)
  const emailJobs = await deleteFinishedEmailJobs(sql, FINISHED_EMAIL_JOB_DAYS)
  log.info('housekeeping.done', { sessions, nonces, rateLimits, undelivered, emailJobs })
}
