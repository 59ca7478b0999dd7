// Wake-ups for jobs that become due later (an undo window, a scheduled send). pg-boss sends its
// NOTIFY only for jobs runnable at once, so a delayed job would otherwise wait for the next idle
// poll (DELIVERY_POLL_SECONDS) after its time. `enqueue` announces a delayed job on DUE_CHANNEL
// in the caller's transaction; each worker process keeps a timer per due moment and wakes its
// workers of that queue then. A process that was down meanwhile falls back on polling.
import type { PgBoss } from 'pg-boss'
import type { Db, Sql } from './client.ts'
import { errorFields, log } from '../lib/log.ts'

const DUE_CHANNEL = 'veilmail_job_due'
/** Further ahead than this, the idle poll is close enough and no timer is held. */
const MAX_AHEAD_MS = 6 * 3600_000
/** due moments this close together share one wake-up */
const BUCKET_MS = 25

/** Sent with the enqueue: takes effect when the caller's transaction commits. */
export async function announceDue(db: Db, queueName: string, dueAt: number): Promise<void> {
  await db`select pg_notify(${DUE_CHANNEL}, ${`${queueName} ${dueAt}`})`
}

/** Wakes `workerIds[queue]` when their delayed jobs come due; returns a stop function. */
export async function wakeWhenDue(sql: Sql, boss: PgBoss, workerIds: Record<string, string[]>): Promise<() => Promise<void>> {
  const timers = new Map<string, NodeJS.Timeout>()
  const { unlisten } = await sql.listen(DUE_CHANNEL, (payload) => {
    const [name, at] = payload.split(' ')
    const ids = workerIds[name]
    const delay = Number(at) - Date.now()
    if (!ids || !Number.isFinite(delay) || delay > MAX_AHEAD_MS) return
    const key = `${name} ${Math.ceil(Number(at) / BUCKET_MS)}`
    if (timers.has(key)) return
    const timer = setTimeout(() => {
      timers.delete(key)
      for (const id of ids) boss.notifyWorker(id)
    }, Math.max(0, Math.ceil(Number(at) / BUCKET_MS) * BUCKET_MS - Date.now()) + 5)
    timer.unref()
    timers.set(key, timer)
  }).catch((error) => {
    // without the channel, delayed jobs are still picked up by the idle poll
    log.warn('queue.due_listen_failed', errorFields(error))
    return { unlisten: async () => {} }
  })
  return async () => {
    for (const timer of timers.values()) clearTimeout(timer)
    timers.clear()
    await unlisten()
  }
}
