// A delivery report (RFC 3464) that came back to a forward's SRS address (issue 30): each permanent
// failure it states for the (alias, target) the address was issued for is recorded as a relay 5xx
// is (keep-undelivered.ts without a copy, target-bounce.ts): the target's bounces in a row and the
// owner's notice. The tag, under the SRS hash, is the only thing trusted: a failure for another
// address than the one the tag names is ignored, and a report without a valid tag never gets here.
import { timingSafeEqual } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { insertUndeliveredMessage } from '../../db/undelivered-messages.ts'
import { findAliasesForwardingTo } from '../../db/target-bounces.ts'
import { log } from '../../lib/log.ts'
import { parseDeliveryReport } from '../mail/delivery-report.ts'
import type { Srs } from '../mail/srs.ts'
import { recordBounce } from '../delivery/target-bounce.ts'

const sameTag = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

export async function recordReportedBounces(deps: { sql: Sql; boss: PgBoss; srs: Srs }, tags: string[], raw: Buffer): Promise<number> {
  let recorded = 0
  for (const failure of parseDeliveryReport(raw)) {
    const candidates = await findAliasesForwardingTo(deps.sql, failure.recipient)
    const alias = candidates.find((a) => tags.some((tag) => sameTag(tag, deps.srs.bounceTag(a.id, failure.recipient))))
    if (!alias) continue
    await deps.sql.begin(async (tx) => {
      await insertUndeliveredMessage(tx, { userId: alias.userId, aliasId: alias.id, target: failure.recipient, reason: failure.reason, code: failure.code, encrypted: null, recipient: null })
      await recordBounce(tx, deps.boss, { userId: alias.userId, aliasId: alias.id, target: failure.recipient, code: failure.code, reason: failure.reason })
    })
    recorded++
  }
  log.info('mx.delivery_report', { recorded })
  return recorded
}
