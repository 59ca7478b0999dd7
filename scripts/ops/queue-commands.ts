// Queue inspection and action, as postqueue/postsuper do for Postfix: queues, jobs, job, requeue,
// flush, cancel. Reads go through db/queue-*.ts, actions through pg-boss and db/deferred-jobs.ts.
import { flushDeferredJobIds } from '../../db/deferred-jobs.ts'
import { findDelivery } from '../../db/spool.ts'
import { getEmailJob } from '../../db/email-jobs.ts'
import { findJob, findJobQueues, listJobIds, listJobs } from '../../db/queue-jobs.ts'
import { countJobsByQueue, JOB_STATES, type JobState } from '../../db/queue-stats.ts'
import { listAllUndelivered } from '../../db/undelivered-messages.ts'
import { announceDue } from '../../db/queue-due.ts'
import { allQueues } from '../../db/queues.ts'
import type { Command } from './command.ts'
import { age, CommandFailed, iso, oneLine, UsageError, uuids, type OpsContext } from './ops-context.ts'

const BATCH = 100

function state(value: unknown, allowed: readonly JobState[] = JOB_STATES): JobState | undefined {
  if (value === undefined) return undefined
  if (!allowed.includes(value as JobState)) throw new UsageError(`--state must be one of ${allowed.join(', ')}`)
  return value as JobState
}

function limit(value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000')
  return n
}

async function knownQueue(ctx: OpsContext, name: string): Promise<void> {
  const names = (await countJobsByQueue(ctx.sql)).map((q) => q.queue)
  if (!names.includes(name)) throw new CommandFailed(`no queue named ${name} (queues: ${names.join(', ')})`)
}

export const queues: Command = {
  summary: 'every queue: jobs per state and how long the oldest due job has waited',
  usage: 'queues [--json]',
  async run(ctx) {
    const rows = await countJobsByQueue(ctx.sql)
    ctx.result(rows)
    ctx.table(rows.map(({ queue, counts, oldestDueSeconds }) => ({
      queue, created: counts.created, retry: counts.retry, active: counts.active, failed: counts.failed,
      completed: counts.completed, cancelled: counts.cancelled, 'oldest due': age(oldestDueSeconds),
    })))
  },
}

export const jobs: Command = {
  summary: 'the jobs of one queue: id, state, attempts, next try, last error',
  usage: `jobs <queue> [--state ${JOB_STATES.join('|')}] [--limit N] [--json]\n  oldest first; --limit defaults to 50`,
  options: { state: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, values, [queue, ...rest]) {
    if (!queue || rest.length) throw new UsageError('give one queue name')
    await knownQueue(ctx, queue)
    const rows = await listJobs(ctx.sql, queue, state(values.state), limit(values.limit, 50))
    ctx.result(rows.map((r) => ({ ...r, lastError: oneLine(r.lastError) || null })))
    ctx.table(rows.map((r) => ({
      id: r.id, state: r.state, retries: `${r.retryCount}/${r.retryLimit}`,
      'next try': r.state === 'created' || r.state === 'retry' ? iso(r.startAfter) : '-', 'last error': oneLine(r.lastError) || '-',
    })))
  },
}

/** The row a job's payload points at, without content, targets or subjects. */
async function belongsTo(ctx: OpsContext, data: Record<string, unknown> | null): Promise<Record<string, unknown> | null> {
  if (typeof data?.deliveryId === 'string') {
    const d = await findDelivery(ctx.sql, data.deliveryId)
    return d ? { delivery: d.id, kind: d.kind, status: d.status, attempts: d.attempts, lastError: oneLine(d.lastError) || null, alias: d.aliasId, spoolMessage: d.spoolId, createdAt: d.createdAt, finishedAt: d.finishedAt } : { delivery: data.deliveryId, gone: true }
  }
  if (typeof data?.emailJobId === 'string') {
    const e = await getEmailJob(ctx.sql, data.emailJobId)
    return e ? { emailJob: e.id, status: e.status, source: e.source, alias: e.aliasId, retries: `${e.currentRetries}/${e.maxRetries}`, scheduledAt: e.scheduledAt, lastError: oneLine(e.lastError) || null } : { emailJob: data.emailJobId, gone: true }
  }
  if (typeof data?.undeliveredId === 'string') {
    const [u] = await listAllUndelivered(ctx.sql, 1, data.undeliveredId)
    return u ? { undelivered: u.id, status: u.status, kept: u.kept, alias: u.aliasId, retries: u.retries, expiresAt: u.expiresAt } : { undelivered: data.undeliveredId, gone: true }
  }
  return null
}

/** A payload's shape: ids as they are (they are ids), anything else only as its type. */
function shape(data: Record<string, unknown> | null): Record<string, string> {
  const UUID = /^[0-9a-f-]{36}$/i
  return Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, typeof v === 'string' && UUID.test(v) ? v : `(${typeof v})`]))
}

export const job: Command = {
  summary: 'everything about one job: queue, payload ids, history, last error, the row it serves',
  usage: 'job <id> [--json]',
  async run(ctx, _values, positionals) {
    const [id] = uuids(positionals, 'job')
    const j = await findJob(ctx.sql, id)
    if (!j) throw new CommandFailed(`no job ${id}`)
    const view = {
      id: j.id, queue: j.queue, state: j.state, priority: j.priority, data: shape(j.data),
      retries: `${j.retryCount}/${j.retryLimit}`, lastError: oneLine(j.lastError) || null,
      history: { createdOn: j.createdOn, startAfter: j.startAfter, startedOn: j.startedOn, heartbeatOn: j.heartbeatOn, completedOn: j.completedOn },
      expireSeconds: j.expireSeconds, deadLetterQueue: j.deadLetter, deadLetterJob: j.deadLetterJob,
      belongsTo: await belongsTo(ctx, j.data),
    }
    ctx.result(view)
    ctx.line(`job         ${view.id}`)
    ctx.line(`queue       ${view.queue}`)
    ctx.line(`state       ${view.state}`)
    ctx.line(`retries     ${view.retries}`)
    ctx.line(`data        ${Object.entries(view.data).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`)
    ctx.line(`created     ${iso(j.createdOn)}`)
    ctx.line(`started     ${iso(j.startedOn)}`)
    ctx.line(`next try    ${j.state === 'created' || j.state === 'retry' ? iso(j.startAfter) : '-'}`)
    ctx.line(`finished    ${iso(j.completedOn)}`)
    ctx.line(`last error  ${view.lastError ?? '-'}`)
    ctx.line(`dead letter ${j.deadLetterJob ? `${j.deadLetterJob.id} on ${j.deadLetterJob.queue} (${j.deadLetterJob.state})` : '-'}`)
    if (view.belongsTo) ctx.line(`belongs to  ${Object.entries(view.belongsTo).map(([k, v]) => `${k}=${v instanceof Date ? v.toISOString() : v}`).join(' ')}`)
  },
}

/** pg-boss's own retry of failed and resume of cancelled jobs; a deferred one is made due now. */
async function requeueIds(ctx: OpsContext, ids: string[]): Promise<{ requeued: string[]; refused: { id: string; reason: string }[] }> {
  const boss = await ctx.boss()
  const requeued: string[] = []
  const refused: { id: string; reason: string }[] = []
  const found = new Map<string, { queue: string; state: JobState }>()
  for (let i = 0; i < ids.length; i += BATCH) for (const row of await findJobQueues(ctx.sql, ids.slice(i, i + BATCH))) found.set(row.id, row)
  const woken = new Set<string>()
  for (let i = 0; i < ids.length; i += BATCH) {
    const byKey = new Map<string, string[]>()
    for (const id of ids.slice(i, i + BATCH)) {
      const row = found.get(id)
      if (!row) refused.push({ id, reason: 'no such job' })
      else if (['failed', 'retry', 'cancelled'].includes(row.state)) byKey.set(`${row.queue} ${row.state}`, [...(byKey.get(`${row.queue} ${row.state}`) ?? []), id])
      else refused.push({ id, reason: `it is ${row.state}, not failed, deferred or cancelled` })
    }
    for (const [key, batch] of byKey) {
      const [queue, st] = key.split(' ')
      if (st === 'failed') await boss.retry(queue, batch)
      else if (st === 'cancelled') await boss.resume(queue, batch)
      else await flushDeferredJobIds(ctx.sql, [queue], { ids: batch })
      requeued.push(...batch)
      woken.add(queue)
    }
    ctx.progress('requeued', Math.min(ids.length, i + BATCH), ids.length)
  }
  // workers of those queues (db/queue-due.ts) fetch now instead of at their next poll
  for (const queue of woken) await announceDue(ctx.sql, queue, Date.now())
  return { requeued, refused }
}

export const requeue: Command = {
  summary: 'run failed, deferred or cancelled jobs again now (by id, or a whole queue in one state)',
  usage: 'requeue <id…> [--json]\nrequeue --queue <queue> --state failed|retry|cancelled [--json]',
  options: { queue: { type: 'string' }, state: { type: 'string' } },
  async run(ctx, values, positionals) {
    let ids: string[]
    if (values.queue !== undefined || values.state !== undefined) {
      if (positionals.length) throw new UsageError('give job ids, or --queue with --state, not both')
      if (typeof values.queue !== 'string' || values.state === undefined) throw new UsageError('--queue and --state go together')
      const st = state(values.state, ['failed', 'retry', 'cancelled'])!
      await knownQueue(ctx, values.queue)
      ids = await listJobIds(ctx.sql, values.queue, st)
    } else {
      ids = uuids(positionals, 'job')
    }
    const { requeued, refused } = await requeueIds(ctx, ids)
    ctx.result({ requeued, refused })
    ctx.line(`requeued ${requeued.length} job(s)`)
    for (const r of refused) ctx.line(`not requeued ${r.id}: ${r.reason}`)
    if (refused.length) throw new CommandFailed(`${refused.length} job(s) not requeued`)
  },
}

export const flush: Command = {
  summary: 'retry every deferred job now, as postqueue -f (one queue, or all)',
  usage: 'flush [queue] [--json]',
  async run(ctx, _values, [queue, ...rest]) {
    if (rest.length) throw new UsageError('give at most one queue name')
    if (queue) await knownQueue(ctx, queue)
    const names = queue ? [queue] : allQueues.map((q) => q.name)
    const ids = await flushDeferredJobIds(ctx.sql, names)
    const byQueue = Object.fromEntries(names.map((n) => [n, 0]))
    for (const row of ids.length ? await findJobQueues(ctx.sql, ids) : []) byQueue[row.queue]++
    for (const [name, n] of Object.entries(byQueue)) if (n) await announceDue(ctx.sql, name, Date.now())
    ctx.result({ flushed: ids.length, byQueue })
    ctx.line(`flushed ${ids.length} deferred job(s)${ids.length ? ': ' + Object.entries(byQueue).filter(([, n]) => n).map(([q, n]) => `${q} ${n}`).join(', ') : ''}`)
  },
}

export const cancel: Command = {
  summary: 'stop jobs that have not finished (they are kept, cancelled, until requeued)',
  usage: 'cancel <id…> [--json]',
  async run(ctx, _values, positionals) {
    const ids = uuids(positionals, 'job')
    const boss = await ctx.boss()
    const found = await findJobQueues(ctx.sql, ids)
    const cancelled: string[] = []
    const refused: { id: string; reason: string }[] = []
    for (const id of ids) {
      const row = found.find((r) => r.id === id)
      if (!row) refused.push({ id, reason: 'no such job' })
      else if (['completed', 'cancelled', 'failed'].includes(row.state)) refused.push({ id, reason: `it is already ${row.state}` })
      else {
        // pg-boss's CommandResponse carries the count, though its type declares nothing
        const res = (await boss.cancel(row.queue, id)) as { affected?: number }
        if (res.affected === 1) cancelled.push(id)
        else refused.push({ id, reason: 'it finished meanwhile' })
      }
    }
    ctx.result({ cancelled, refused })
    ctx.line(`cancelled ${cancelled.length} job(s)`)
    for (const r of refused) ctx.line(`not cancelled ${r.id}: ${r.reason}`)
    if (refused.length) throw new CommandFailed(`${refused.length} job(s) not cancelled`)
  },
}
