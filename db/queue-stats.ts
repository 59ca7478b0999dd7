import type { Db } from './client.ts'

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const

export interface QueueCounts { queue: string; counts: Record<(typeof JOB_STATES)[number], number> }

/** Every pg-boss queue with its jobs counted per state. */
export async function countJobsByQueue(db: Db): Promise<QueueCounts[]> {
  const rows = await db<{ name: string; state: string | null; count: number }[]>`
    select q.name, j.state::text as state, count(j.id)::int as count
    from pgboss.queue q left join pgboss.job j on j.name = q.name
    group by q.name, j.state order by q.name`
  const byQueue = new Map<string, QueueCounts>()
  for (const row of rows) {
    const entry = byQueue.get(row.name) ?? { queue: row.name, counts: Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as QueueCounts['counts'] }
    if (row.state) entry.counts[row.state as keyof QueueCounts['counts']] = row.count
    byQueue.set(row.name, entry)
  }
  return [...byQueue.values()]
}
