// Every queue, declared once: name, payload schema, retry policy, expiry, dead-letter queue.
// Producers (api/, workers/) and consumers (workers/) import these definitions; nothing else
// names a queue. The file a queue's handler lives in is named after the queue.
import * as v from 'valibot'
import { PgBoss } from 'pg-boss'
import type { Db } from './client.ts'
import { errorFields, log } from '../lib/log.ts'
import { announceDue } from './queue-due.ts'
import { PreparedStatementsDb } from './queue-prepared-db.ts'

export interface QueueDefinition<S extends v.GenericSchema = v.GenericSchema> {
  name: string
  schema: S
  retryLimit: number
  /** seconds before the first retry; doubled each attempt when retryBackoff */
  retryDelay: number
  retryBackoff: boolean
  retryDelayMax?: number
  expireInSeconds: number
  /** how long a job may wait (created or retry) before pg-boss deletes it: longer than the whole retry schedule (default 7 days) */
  retentionSeconds?: number
  /** a worker that stops beating this long (it died) has its job retried (min 10) */
  heartbeatSeconds?: number
  /** pg-boss queue policy; 'stately': at most one job queued and one active per singleton key */
  policy?: 'standard' | 'stately'
}
export type Payload<Q extends QueueDefinition> = v.InferOutput<Q['schema']>

export function defineQueue<S extends v.GenericSchema>(def: QueueDefinition<S>): QueueDefinition<S> {
  return def
}

export const deadLetterName = (queue: QueueDefinition) => `${queue.name}.dead`

const Uuid = v.pipe(v.string(), v.uuid())

/**
 * A job whose worker died mid-flight is retried within 30 s: its heartbeat lapses after this
 * many seconds, the supervisor (SUPERVISE_SECONDS) fails it, and the delivery process's lost-job
 * sweep (workers/delivery/delivery-worker.ts) makes it due at once instead of after the retry delay.
 */
export const LOST_JOB_HEARTBEAT = 10
export const SUPERVISE_SECONDS = 5

/** Mail to another server is retried for about two days, with backoff, as an MTA's queue does. */
const MAIL_RETRIES = { retryLimit: 20, retryDelay: 30, retryBackoff: true, retryDelayMax: 4 * 3600, expireInSeconds: 10 * 60 }

export const queues = {
  /** Erases what is left of a deleted account (its rows were cut off from sign-in at once). */
  accountCleanup: defineQueue({
    name: 'account-cleanup',
    schema: v.object({ userId: Uuid }),
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 3600,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /**
   * Inbound forwarding (issue #4), one job per (message, target), carrying the delivery id only.
   * E-mail: retried for about two days, like an MTA queue. A dead job marks its delivery failed.
   */
  forwardEmail: defineQueue({
    name: 'forward-email',
    schema: v.object({ deliveryId: Uuid }),
    ...MAIL_RETRIES,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /** Webhooks: the Standard Webhooks schedule (seconds, minutes, then hours, about a day in all). */
  forwardWebhook: defineQueue({
    name: 'forward-webhook',
    schema: v.object({ deliveryId: Uuid }),
    retryLimit: 9,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 5 * 3600,
    expireInSeconds: 2 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /** Anonymous replies through a reverse alias, re-sent from the alias to the outside contact. */
  forwardReply: defineQueue({
    name: 'forward-reply',
    schema: v.object({ deliveryId: Uuid }),
    ...MAIL_RETRIES,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /** Mail to postmaster@ and abuse@ a mail domain, attached to a note for the operator (OPERATOR_EMAIL). */
  forwardOperator: defineQueue({
    name: 'forward-operator',
    schema: v.object({ deliveryId: Uuid }),
    ...MAIL_RETRIES,
    heartbeatSeconds: 30,
  }),
  /**
   * The owner's Retry of a kept undelivered message (issue #6): its encrypted copy to the target
   * it failed for. Retried for about an hour; a dead job puts the message back on the list.
   */
  retryUndelivered: defineQueue({
    name: 'retry-undelivered',
    schema: v.object({ undeliveredId: Uuid }),
    retryLimit: 6,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 1800,
    expireInSeconds: 10 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /**
   * The once-a-day bounce notice of one user (issue 30): queued by the first bounce that waits for
   * one, due a day after the previous notice (bounce_settings); the dashboard's and the mail's.
   */
  bounceNotice: defineQueue({
    name: 'bounce-notice',
    schema: v.object({ userId: Uuid }),
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    retryDelayMax: 3600,
    expireInSeconds: 5 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /** Daily: expired sessions, spent wallet nonces, stale rate-limit windows and expired undelivered mail. */
  housekeeping: defineQueue({
    name: 'housekeeping',
    schema: v.object({}),
    retryLimit: 3,
    retryDelay: 300,
    retryBackoff: false,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /** Daily: the DNS records of active custom domains checked again, the owner told when one broke (issue 29). */
  domainRecheck: defineQueue({
    name: 'domain-recheck',
    schema: v.object({}),
    retryLimit: 2,
    retryDelay: 600,
    retryBackoff: false,
    expireInSeconds: 30 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /**
   * Sends one email job (compose or submission). Each job is enqueued with its own retry limit
   * (the row's maxRetries) and backoff; the row's status is kept in step by the handler.
   */
  sendEmail: defineQueue({
    name: 'send-email',
    schema: v.object({ emailJobId: Uuid }),
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 3600,
    expireInSeconds: 5 * 60,
    heartbeatSeconds: LOST_JOB_HEARTBEAT,
  }),
  /**
   * Syncs one connected mailbox: the first login check and first sync of a new
   * account, the Sync button, the schedule. The job id is its mailbox_sync_jobs row. Singleton
   * per account (key = providerId): one waiting and one running at most, in any number of sync
   * processes. Timeouts and resets are retried with backoff; a refused password is not.
   */
  syncMailbox: defineQueue({
    name: 'sync-mailbox',
    schema: v.object({ providerId: Uuid }),
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 1800,
    expireInSeconds: 60 * 60,
    heartbeatSeconds: 30,
    policy: 'stately',
  }),
  /** Writes the user's star/read/delete of one account back to its IMAP server (key = providerId). */
  mailboxChanges: defineQueue({
    name: 'mailbox-changes',
    schema: v.object({ providerId: Uuid }),
    retryLimit: 20,
    retryDelay: 15,
    retryBackoff: true,
    retryDelayMax: 3600,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 30,
    policy: 'stately',
  }),
} satisfies Record<string, QueueDefinition>

export const allQueues: QueueDefinition[] = Object.values(queues)

export function createBoss(databaseUrl: string, options: { max?: number; maintenance?: boolean } = {}): PgBoss {
  const connection = { connectionString: databaseUrl, max: options.max ?? 5, application_name: 'veilmail-queue' }
  const boss = new PgBoss({
    ...connection,
    // its statements prepared per connection (db/queue-prepared-db.ts)
    db: new PreparedStatementsDb(connection),
    schema: 'pgboss',
    useListenNotify: true,
    supervise: options.maintenance ?? true,
    schedule: options.maintenance ?? true,
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
  } as ConstructorParameters<typeof PgBoss>[0])
  boss.on('error', (error) => log.error('queue.error', errorFields(error)))
  return boss
}

/** Creates each queue and its dead-letter queue (idempotent). */
export async function createQueues(boss: PgBoss, definitions: QueueDefinition[] = allQueues): Promise<void> {
  for (const q of definitions) {
    await boss.createQueue(deadLetterName(q), { retentionSeconds: 14 * 86400 })
    await boss.createQueue(q.name, {
      ...(q.policy ? { policy: q.policy } : {}),
      retryLimit: q.retryLimit,
      retryDelay: q.retryDelay,
      retryBackoff: q.retryBackoff,
      ...(q.retryBackoff && q.retryDelayMax ? { retryDelayMax: q.retryDelayMax } : {}),
      expireInSeconds: q.expireInSeconds,
      ...(q.heartbeatSeconds ? { heartbeatSeconds: q.heartbeatSeconds } : {}),
      retentionSeconds: q.retentionSeconds ?? 7 * 86400,
      deadLetter: deadLetterName(q),
      notify: true, // workers are woken by NOTIFY when a job is created, not by polling
    })
    // createQueue leaves an existing queue as it was: a queue made before heartbeats were this
    // short gets them here
    if (q.heartbeatSeconds) await boss.updateQueue(q.name, { heartbeatSeconds: q.heartbeatSeconds })
  }
}

/** pg-boss runs its statements through this, so a job commits or rolls back with the caller's rows. */
function executorFor(db: Db) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      // Prepared per connection: pg-boss statements are long, and planning one each time costs milliseconds.
      const rows = await db.unsafe(text, values as never[], { prepare: true })
      return { rows: [...rows] }
    },
  }
}

export interface EnqueueOptions {
  priority?: number
  startAfter?: Date | number
  singletonKey?: string
  id?: string
  /** the job's group, for a worker's `groupConcurrency` */
  group?: { id: string }
  /** per-job retry policy, overriding the queue's */
  retryLimit?: number
  retryDelay?: number
  retryBackoff?: boolean
}

/**
 * Enqueues a job inside the caller's transaction (or on the pool). The payload is validated
 * against the queue's schema first; an invalid payload is a programming error and throws.
 */
export async function enqueue<Q extends QueueDefinition>(db: Db, boss: PgBoss, queue: Q, payload: Payload<Q>, options: EnqueueOptions = {}): Promise<string> {
  const data = v.parse(queue.schema, payload) as object
  const id = await boss.send(queue.name, data, { ...options, db: executorFor(db) })
  if (!id) throw new Error(`queue ${queue.name} refused the job`)
  const dueAt = typeof options.startAfter === 'number' ? Date.now() + options.startAfter * 1000 : options.startAfter?.getTime()
  if (dueAt && dueAt > Date.now()) await announceDue(db, queue.name, dueAt)
  return id
}

/**
 * Many due jobs of one queue in one statement (pg-boss `insert`), inside the caller's transaction:
 * the MX's group commit enqueues a batch's deliveries this way. Each payload is validated first.
 */
export async function enqueueMany<Q extends QueueDefinition>(db: Db, boss: PgBoss, queue: Q, payloads: Payload<Q>[]): Promise<void> {
  if (payloads.length === 0) return
  const jobs = payloads.map((payload) => ({ data: v.parse(queue.schema, payload) as object }))
  await boss.insert(queue.name, jobs, { db: executorFor(db) })
}

export interface WorkContext {
  jobId: string
  retryCount: number
  signal: AbortSignal
}

export interface WorkOptions {
  /** jobs of this queue run at once in this process */
  concurrency?: number
  /**
   * jobs taken per fetch: 1 (the default) for handlers that may be slow, so one slow job holds up
   * no other; larger where a handler batches its own statements (send-email)
   */
  batchSize?: number
  /** idle re-check for retries that came due (new jobs wake workers at once) */
  pollSeconds?: number
  /** jobs of one group (a job's `group.id`, e.g. its user) running at once across every process */
  groupConcurrency?: number
}

type JobResult = { id: string; status: 'completed' | 'failed' | 'deadletter'; output?: { error: string } }

/**
 * Fails the jobs of a batch whose handler threw (each retried per its queue's policy) and sends
 * those with an invalid payload to the dead-letter queue at once; pg-boss then completes the rest
 * by id. Not pg-boss's per-job results: it completes those with an UPDATE joined to a JSON
 * recordset, which Postgres plans as a sequential scan of the whole job table (the recordset is
 * estimated at 100 rows), completed jobs of the last week included: up to ~800 pages per batch in
 * `BENCH_PG_STATEMENTS=1 npm run bench -- mx`, where the complete by id reads a few.
 */
async function settleUnsuccessful(boss: PgBoss, queue: QueueDefinition, jobs: { id: string; retryCount: number }[], results: JobResult[]): Promise<void> {
  const byError = new Map<string, { id: string; retryCount: number }[]>()
  results.forEach((r, i) => {
    if (r.status === 'completed') return
    const error = r.status === 'deadletter' ? 'invalid_payload' : (r.output?.error ?? 'error')
    byError.set(error, [...(byError.get(error) ?? []), jobs[i]])
  })
  const invalid = byError.get('invalid_payload')
  if (invalid) await exhaustRetries(boss, queue, invalid.map((j) => j.id))
  for (const [error, failed] of byError) await boss.fail(queue.name, failed, { error })
}

/** An invalid payload is not retried: its job's retries are used up, so failing it dead-letters it. */
async function exhaustRetries(boss: PgBoss, queue: QueueDefinition, ids: string[]): Promise<void> {
  await boss.getDb().executeSql('update pgboss.job set retry_limit = retry_count where name = $1 and id = any($2::uuid[])', [queue.name, ids])
}

/**
 * Runs `handler` for each job of `queue`, `concurrency` at once. The payload is parsed first: an
 * invalid one goes straight to the dead-letter queue. A handler throws to retry and returns when
 * done. Resolves with the ids of its fetch loops (for wake-ups).
 *
 * Each fetch loop takes `batchSize` jobs, runs them side by side and, when the fetch came back
 * full, fetches again at once: a backlog drains at full speed whether pg-boss's wake-ups arrived
 * or not (it would otherwise wait `pollSeconds` between fetches, and pg-boss's own burst option
 * ignores single-job fetches). A short fetch means the queue was empty: the loop then sleeps
 * until a NOTIFY, a due-time wake-up or the poll.
 */
export async function work<Q extends QueueDefinition>(
  boss: PgBoss,
  queue: Q,
  handler: (payload: Payload<Q>, ctx: WorkContext) => Promise<void>,
  options: WorkOptions = {},
): Promise<string[]> {
  const polling = options.pollSeconds ? { pollingIntervalSeconds: options.pollSeconds, notifyPollingIntervalSeconds: options.pollSeconds } : {}
  const concurrency = Math.max(1, options.concurrency ?? 1)
  const batchSize = Math.min(Math.max(1, options.batchSize ?? 1), concurrency)
  const runOne = async (job: { id: string; data: unknown; retryCount: number; signal: AbortSignal }): Promise<JobResult> => {
    const parsed = v.safeParse(queue.schema, job.data)
    if (!parsed.success) {
      log.error('job.invalid_payload', { queue: queue.name, job: job.id })
      return { id: job.id, status: 'deadletter' as const }
    }
    const started = performance.now()
    try {
      await handler(parsed.output, { jobId: job.id, retryCount: job.retryCount, signal: job.signal })
      log.debug('job.done', { queue: queue.name, job: job.id, ms: Math.round(performance.now() - started) })
      return { id: job.id, status: 'completed' as const }
    } catch (error) {
      log.warn('job.failed', { queue: queue.name, job: job.id, attempt: job.retryCount, ms: Math.round(performance.now() - started), ...errorFields(error) })
      return { id: job.id, status: 'failed' as const, output: { error: error instanceof Error ? error.name : 'error' } }
    }
  }
  const loops: string[] = []
  for (let started = 0; started < concurrency; started += batchSize) {
    const size = Math.min(batchSize, concurrency - started)
    let self: (id: string) => void = () => {}
    const loopId = new Promise<string>((resolve) => { self = resolve })
    const groups = options.groupConcurrency ? { groupConcurrency: options.groupConcurrency } : {}
    const id = await boss.work<unknown>(queue.name, { batchSize: size, localConcurrency: 1, ...polling, ...groups }, async (jobs) => {
      const results = await Promise.all(jobs.map(runOne))
      await settleUnsuccessful(boss, queue, jobs, results)
      // a full fetch: more are likely waiting, so this loop skips its idle wait
      if (jobs.length >= size) boss.notifyWorker(await loopId)
      // returning completes the batch's jobs that are still active, by id
    })
    self(id)
    loops.push(id)
  }
  return loops
}
