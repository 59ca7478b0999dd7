// Jobs waiting out a retry delay (pg-boss state `retry`). Flushing makes them due at once, as
// `postqueue -f` does for Postfix's deferred queue.
import type { Db } from './client.ts'

/** Makes every job of `queueNames` that waits for its next try due now; returns how many. */
export async function flushDeferredJobs(db: Db, queueNames: string[]): Promise<number> {
  return (await flushDeferredJobIds(db, queueNames)).length
}

/** The same, limited to `ids` when given; returns the ids made due. */
export async function flushDeferredJobIds(db: Db, queueNames: string[], ids?: string[]): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    update pgboss.job set start_after = now()
    where name = any(${queueNames}) and state = 'retry' and start_after > now()
      and (${ids ?? null}::uuid[] is null or id = any(${ids ?? null}::uuid[]))
    returning id`
  return rows.map((r) => r.id)
}
