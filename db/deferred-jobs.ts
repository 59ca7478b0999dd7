// Jobs waiting out a retry delay (pg-boss state `retry`). Flushing makes them due at once, as
// `postqueue -f` does for Postfix's deferred queue.
import type { Db } from './client.ts'

/** Makes every job of `queueNames` that waits for its next try due now; returns how many. */
export async function flushDeferredJobs(db: Db, queueNames: string[]): Promise<number> {
  return (await flushDeferredJobIds(db, queueNames)).length
}

/** pg-boss's reasons for failing a job whose worker stopped answering (plans.js failJobsBy*). */
const LOST = ['job heartbeat timeout', 'job timed out']

/**
 * The same, limited to `ids` when given, or to jobs whose worker died (`lost`: pg-boss failed
 * them for a lapsed heartbeat or lease, not for an error of ours); returns the ids made due.
 */
export async function flushDeferredJobIds(db: Db, queueNames: string[], only: { ids?: string[]; lost?: boolean } = {}): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    update pgboss.job set start_after = now()
    where name = any(${queueNames}) and state = 'retry' and start_after > now()
      and (${only.ids ?? null}::uuid[] is null or id = any(${only.ids ?? null}::uuid[]))
      and (not ${only.lost ?? false} or output->'value'->>'message' = any(${LOST}))
    returning id`
  return rows.map((r) => r.id)
}

/** Makes the job of one delivery that waits for its next try due now; false when none waits. */
export async function flushDeliveryJob(db: Db, queueName: string, deliveryId: string): Promise<boolean> {
  const rows = await db`
    update pgboss.job set start_after = now()
    where name = ${queueName} and state = 'retry' and data->>'deliveryId' = ${deliveryId}
    returning id`
  return rows.length > 0
}
