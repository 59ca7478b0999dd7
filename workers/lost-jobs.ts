// A job whose worker died (pg-boss failed it for a lapsed heartbeat or lease) runs again now, not
// after the retry delay its queue keeps for a server that asked us to wait: within about 30 s of
// the death in all (heartbeat, then the sweep every SUPERVISE_SECONDS). The workers of its queue
// in every process are woken as for a job that came due (db/queue-due.ts), not at their next poll.
import { flushDeferredJobIds } from '../db/deferred-jobs.ts'
import type { Sql } from '../db/client.ts'
import { announceDue } from '../db/queue-due.ts'
import { SUPERVISE_SECONDS } from '../db/queues.ts'
import { errorFields, log } from '../lib/log.ts'

/** Sweeps `queueNames` for lost jobs every SUPERVISE_SECONDS; returns the function that stops it. */
export function retryLostJobs(sql: Sql, queueNames: string[]): () => void {
  const sweep = async () => {
    const ids = await flushDeferredJobIds(sql, queueNames, { lost: true })
    if (!ids.length) return
    log.info('jobs.lost_retried', { count: ids.length })
    for (const name of queueNames) await announceDue(sql, name, Date.now())
  }
  const timer = setInterval(() => { sweep().catch((error) => log.warn('jobs.lost_sweep_failed', errorFields(error))) }, SUPERVISE_SECONDS * 1000)
  timer.unref()
  return () => clearInterval(timer)
}
