// A forward refused for good by the target's server (issue 30): counted against the target (hard
// bounces in a row, the mark at the owner's threshold) and waiting for the owner's once-a-day
// notice (bounce-notice.ts). Runs in the delivery's transaction beside the undelivered record
// (keep-undelivered.ts), which holds the per-(alias, target) code and reason the notice lists.
import type { PgBoss } from 'pg-boss'
import type { Tx } from '../../db/client.ts'
import { markBounceNoticePending } from '../../db/bounce-settings.ts'
import { enqueue, queues } from '../../db/queues.ts'
import { recordTargetBounce } from '../../db/target-bounces.ts'
import { log } from '../../lib/log.ts'

/** A reply code that refuses for good (RFC 5321 §4.2.1: 5yz); 503 is a sequence error, not the recipient's. */
export const isHardBounce = (code: number | undefined): code is number => code !== undefined && code >= 500 && code <= 599 && code !== 503

/** The owner's notice waits for this bounce; its job is queued by the first bounce that waits. */
async function noteBounceForNotice(tx: Tx, boss: PgBoss | undefined, userId: string): Promise<void> {
  if (!boss) return
  const due = await markBounceNoticePending(tx, userId)
  if (due) await enqueue(tx, boss, queues.bounceNotice, { userId }, { startAfter: due })
}

/** Counts a hard bounce of `target` (marking it at the threshold) and queues the owner's notice. */
export async function recordBounce(tx: Tx, boss: PgBoss | undefined, input: { userId: string; aliasId: string; target: string; code: number; reason: string }): Promise<void> {
  const state = await recordTargetBounce(tx, input.userId, input.target, input.code, input.reason)
  log.info('bounce.recorded', { alias: input.aliasId, code: input.code, consecutive: state.consecutive, disabled: Boolean(state.disabledAt) })
  await noteBounceForNotice(tx, boss, input.userId)
}
