// housekeeping: deletes what has expired (sessions, wallet nonces, rate-limit records whose
// window has passed, undelivered mail past its 30 days, finished outgoing mail records past
// FINISHED_EMAIL_JOB_DAYS, thread Message-ID hashes past a year, spent account links, sign-ins left at the second step, unanswered passkey challenges,
// the records of spent unsubscribe and block links once the links have expired anyway) and fails
// forwards held longer than HOLD_SECONDS for a target that was never confirmed. Scheduled hourly
// by the delivery process, so a rate-limit record (an IP or e-mail address) outlives its window by
// at most an hour; running it twice is harmless.
import type { Sql } from '../../db/client.ts'
import { deleteExpiredAccountTokens } from '../../db/account-tokens.ts'
import { deleteExpiredLinkTokenUses } from '../../db/link-token-uses.ts'
import { deleteFinishedEmailJobs } from '../../db/email-jobs.ts'
import { findExpiredHeldDeliveries } from '../../db/forward-targets.ts'
import { deleteExpiredPendingSignIns } from '../../db/pending-sign-ins.ts'
import { deleteExpiredRateLimits } from '../../db/rate-limits.ts'
import { deleteExpiredSessions } from '../../db/sessions.ts'
import { deleteOldThreadMessageIds } from '../../db/thread-message-ids.ts'
import { deleteExpiredWebauthnChallenges } from '../../db/webauthn-challenges.ts'
import { deleteExpiredUndeliveredMessages } from '../../db/undelivered-messages.ts'
import { deleteExpiredWalletNonces } from '../../db/wallet-nonces.ts'
import { log } from '../../lib/log.ts'
import { FINISHED_EMAIL_JOB_DAYS } from '../../shared/retention-periods.ts'
import { expireHeldDelivery } from './delivery-step.ts'

/** How long a forward waits for its target to be confirmed before it fails. */
export const HOLD_SECONDS = 7 * 86400

export const HOUSEKEEPING_CRON = '17 * * * *' // hourly at :17 (the privacy page promises "within an hour")

export async function housekeeping(sql: Sql): Promise<void> {
  const sessions = await deleteExpiredSessions(sql)
  const nonces = await deleteExpiredWalletNonces(sql)
  const rateLimits = await deleteExpiredRateLimits(sql)
  const undelivered = await deleteExpiredUndeliveredMessages(sql)
  const threadIds = await deleteOldThreadMessageIds(sql)
  const tokens = await deleteExpiredAccountTokens(sql)
  const pendingSignIns = await deleteExpiredPendingSignIns(sql)
  const challenges = await deleteExpiredWebauthnChallenges(sql)
  const linkTokens = await deleteExpiredLinkTokenUses(sql)
  const held = await findExpiredHeldDeliveries(sql, HOLD_SECONDS)
  for (const id of held) await expireHeldDelivery(sql, id)
  const emailJobs = await deleteFinishedEmailJobs(sql, FINISHED_EMAIL_JOB_DAYS)
  log.info('housekeeping.done', { sessions, nonces, rateLimits, undelivered, threadIds, tokens, held: held.length, emailJobs, pendingSignIns, challenges, linkTokens })
}
