// pg-boss jobs as an operator sees them (npm run ops -- jobs / job): ids, states, attempts and the
// error class a handler failed with. Payloads hold ids only (db/queues.ts), never content.
import type { Db } from './client.ts'
import type { JobState } from './queue-stats.ts'

export interface JobSummary {
  id: string
  queue: string
  state: JobState
  retryCount: number
  retryLimit: number
  /** when it runs (next) */
  startAfter: Date
  createdOn: Date
  /**
   * what the last attempt failed with: the delivery's or e-mail job's record of it (e.g.
   * smtp-451), else the error class the handler threw or pg-boss's own reason (expiry, heartbeat)
   */
  lastError: string | null
}

export interface JobDetail extends JobSummary {
  data: Record<string, unknown> | null
  priority: number
  startedOn: Date | null
  completedOn: Date | null
  heartbeatOn: Date | null
  expireSeconds: number
  deadLetter: string | null
  singletonKey: string | null
  /** the copy pg-boss put on the dead-letter queue when this job ran out of attempts */
  deadLetterJob: { id: string; queue: string; state: JobState; completedOn: Date | null } | null
}

const lastError = `coalesce(j.output->>'error', j.output->'value'->>'message', j.output->>'message')`

/** Jobs of a queue, oldest first, optionally in one state. */
export async function listJobs(db: Db, queue: string, state: JobState | undefined, limit: number): Promise<JobSummary[]> {
  return db<JobSummary[]>`
    select j.id, j.name as queue, j.state::text as state, j.retry_count, j.retry_limit, j.start_after, j.created_on,
           coalesce(d.last_error, e.last_error, ${db.unsafe(lastError)}) as last_error
    from pgboss.job j
    left join deliveries d on d.id = (j.data->>'deliveryId')::uuid
    left join email_jobs e on e.id = (j.data->>'emailJobId')::uuid
    where j.name = ${queue} and (${state ?? null}::text is null or j.state::text = ${state ?? null})
    order by j.created_on, j.id limit ${limit}`
}

/** One job of any queue, with the dead-letter copy made of it, if any. */
export async function findJob(db: Db, id: string): Promise<JobDetail | undefined> {
  const [row] = await db<JobDetail[]>`
    select j.id, j.name as queue, j.state::text as state, j.retry_count, j.retry_limit, j.start_after, j.created_on,
           ${db.unsafe(lastError)} as last_error, j.data, j.priority, j.started_on, j.completed_on, j.heartbeat_on,
           j.expire_seconds, j.dead_letter, j.singleton_key,
           (select json_build_object('id', d.id, 'queue', d.name, 'state', d.state, 'completedOn', d.completed_on)
            from pgboss.job d where d.source_id = j.id and d.name = j.dead_letter limit 1) as dead_letter_job
    from pgboss.job j where j.id = ${id}::uuid`
  return row
}

/** The ids of a queue's jobs in one state (requeue --queue Q --state S). */
export async function listJobIds(db: Db, queue: string, state: JobState): Promise<string[]> {
  const rows = await db<{ id: string }[]>`select id from pgboss.job where name = ${queue} and state::text = ${state} order by created_on`
  return rows.map((r) => r.id)
}

/** Which queue a job id belongs to, and its state, for ids given on the command line. */
export async function findJobQueues(db: Db, ids: string[]): Promise<{ id: string; queue: string; state: JobState }[]> {
  return db<{ id: string; queue: string; state: JobState }[]>`
    select id, name as queue, state::text as state from pgboss.job where id = any(${ids}::uuid[])`
}
