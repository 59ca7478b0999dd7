import type { Db } from './client.ts'

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const
export type JobState = (typeof JOB_STATES)[number]

export interface QueueCounts {
  queue: string
  counts: Record<JobState, number>
  /** age of the oldest job in each state, in seconds (null when there is none) */
  oldestSeconds: Record<JobState, number | null>
  /** how long the oldest job that is due (created or retry, start time passed) has been waiting */
  oldestDueSeconds: number | null
}

/** Every pg-boss queue with its jobs counted per state, and the oldest job's age. */
export async function countJobsByQueue(db: Db): Promise<QueueCounts[]> {
  const rows = await db<{ name: string; state: string | null; count: number; oldestSeconds: number | null; oldestDueSeconds: number | null }[]>`
    select q.name, j.state::text as state, count(j.id)::int as count,
           extract(epoch from now() - min(j.created_on))::float8 as oldest_seconds,
           extract(epoch from now() - min(j.start_after) filter (where j.state in ('created', 'retry') and j.start_after <= now()))::float8 as oldest_due_seconds
    from pgboss.queue q left join pgboss.job j on j.name = q.name
    group by q.name, j.state order by q.name`
  const byQueue = new Map<string, QueueCounts>()
  for (const row of rows) {
    const entry = byQueue.get(row.name) ?? {
      queue: row.name,
      counts: Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as QueueCounts['counts'],
      oldestSeconds: Object.fromEntries(JOB_STATES.map((s) => [s, null])) as QueueCounts['oldestSeconds'],
      oldestDueSeconds: null,
    }
    if (row.state) {
      entry.counts[row.state as JobState] = row.count
      entry.oldestSeconds[row.state as JobState] = row.oldestSeconds
    }
    if (row.oldestDueSeconds !== null) entry.oldestDueSeconds = Math.max(entry.oldestDueSeconds ?? 0, row.oldestDueSeconds)
    byQueue.set(row.name, entry)
  }
  return [...byQueue.values()]
}
