// A forward target is confirmed (its link was followed, or it is the owner's verified account
// address): from now on mail goes there, and the forwards held for it leave at once. Confirming
// upserts the target's row first, which waits for any forward deciding to hold (it share-locks
// the row), so nothing held in the meantime is left behind.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { confirmForwardTarget, releaseHeldDeliveries } from '../../db/forward-targets.ts'
import { enqueue, queues } from '../../db/queues.ts'

export async function confirmTarget(deps: { sql: Sql; boss: PgBoss }, userId: string, email: string): Promise<number> {
  return deps.sql.begin(async (tx) => {
    await confirmForwardTarget(tx, userId, email)
    const released = await releaseHeldDeliveries(tx, userId, email)
    for (const deliveryId of released) await enqueue(tx, deps.boss, queues.forwardEmail, { deliveryId })
    return released.length
  })
}
