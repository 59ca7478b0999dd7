// A forward target marked for its hard bounces (issue 30) takes forwards again: its mark and count
// cleared and the forwards it held queued, in one transaction. By the owner's Re-enable (web) or a
// test mail the target's server took (delivery).
import type { PgBoss } from 'pg-boss'
import type { Db } from './client.ts'
import { releaseHeldDeliveries } from './forward-targets.ts'
import { enqueue, queues } from './queues.ts'
import { enableBouncedTarget } from './target-bounces.ts'

/** `tx` must be a transaction. False when the target was not marked (nothing changes). */
export async function reenableTarget(tx: Db, boss: PgBoss, userId: string, email: string): Promise<boolean> {
  if (!(await enableBouncedTarget(tx, userId, email))) return false
  for (const deliveryId of await releaseHeldDeliveries(tx, userId, email)) await enqueue(tx, boss, queues.forwardEmail, { deliveryId })
  return true
}
