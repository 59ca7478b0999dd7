// A delivery report (RFC 3464) that came back to a forward's SRS address (issue 30): each permanent
// failure it states for the (alias, target) the address was issued for is recorded as a relay 5xx
// is (keep-undelivered.ts without a copy, target-bounce.ts): the target's bounces in a row and the
// owner's notice. One for a target's test mail (sent from a tagged SRS address too) stops the
// target again and marks the test refused, with the report's code and reason. The tag, under the
// SRS hash, is the only thing trusted: a failure for another address than the one the tag names
// is ignored, and a report without a valid tag never gets here.
import { timingSafeEqual } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { insertUndeliveredMessage } from '../../db/undelivered-messages.ts'
import { markEmailJobFailed } from '../../db/email-jobs.ts'
import { findAliasesForwardingTo, findBounceTagSubjects, markTargetBounced, type BounceTagSubject } from '../../db/target-bounces.ts'
import { log } from '../../lib/log.ts'
import { parseDeliveryReport } from '../mail/delivery-report.ts'
import { Srs } from '../mail/srs.ts'
import { recordBounce } from '../delivery/target-bounce.ts'

const sameTag = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** The alias or test mail one of `tags` names for `recipient`: looked up by the tag's id range, then its HMAC checked. */
async function subjectOf(deps: { sql: Sql; srs: Srs }, tags: string[], recipient: string): Promise<BounceTagSubject | undefined> {
  for (const tag of tags) {
    const candidates = await findBounceTagSubjects(deps.sql, recipient, Srs.tagIdRange(tag))
    const subject = candidates.find((s) => sameTag(tag, deps.srs.bounceTag(s.id, recipient, s.kind)))
    if (subject) return subject
  }
  // an address issued before tags named their alias (Srs.legacyBounceTag): its aliases tried in turn
  const aliases = await findAliasesForwardingTo(deps.sql, recipient)
  for (const tag of tags) {
    const alias = aliases.find((a) => sameTag(tag, deps.srs.legacyBounceTag(a.id, recipient)))
    if (alias) return { kind: 'alias', ...alias }
  }
  return undefined
}

export async function recordReportedBounces(deps: { sql: Sql; boss: PgBoss; srs: Srs }, tags: string[], raw: Buffer): Promise<number> {
  let recorded = 0
  for (const failure of parseDeliveryReport(raw)) {
    const subject = await subjectOf(deps, tags, failure.recipient)
    if (!subject) continue
    await deps.sql.begin(async (tx) => {
      if (subject.kind === 'test') {
        // the target refused its test mail after the relay took it: stopped again, and the test refused
        await markTargetBounced(tx, subject.userId, failure.recipient, failure.code, failure.reason)
        await markEmailJobFailed(tx, subject.id, failure.reason, failure.code)
        return
      }
      await insertUndeliveredMessage(tx, { userId: subject.userId, aliasId: subject.id, target: failure.recipient, reason: failure.reason, code: failure.code, encrypted: null, recipient: null })
      await recordBounce(tx, deps.boss, { userId: subject.userId, aliasId: subject.id, target: failure.recipient, code: failure.code, reason: failure.reason })
    })
    recorded++
  }
  log.info('mx.delivery_report', { recorded })
  return recorded
}
