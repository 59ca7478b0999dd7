// Jobs waiting out a retry delay (pg-boss state `retry`). Flushing makes them due at once, as
// `postqueue -f` does for Postfix's deferred queue.
import type { Db } from './client.ts'

/** Makes every job of `queueNames` that waits for its next try due now; returns how many. */
export async function flushDeferredJobs(db: Db, queueNames: string[]): Promise<number> {
  const rows = await db`
    update pgboss.job set start_after = now()
    where name = any(${queueNames}) and state = 'retry' and start_after > now()
    returning id`
  return rows.length
}

/** Makes the job of one delivery that waits for its next try due now; false when none waits. */
export async function flushDeliveryJob(db: Db, queueName: string, deliveryId: string): Promise<boolean> {
  const rows = await db`
    update pgboss.job set start_after = now()
    where name = ${queueName} and state = 'retry' and data->>'deliveryId' = ${deliveryId}
    returning id`
  return rows.length > 0
}
