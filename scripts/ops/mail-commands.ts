// Mail as the operator sees it, by id and state only: dead letters (undelivered mail kept
// encrypted), one outgoing e-mail job, the inbound spool. No subject, body or address is printed.
import { getEmailJob } from '../../db/email-jobs.ts'
import { summarizeSpool } from '../../db/spool.ts'
import { listAllUndelivered, lockUndeliveredCopy, markUndeliveredRetrying } from '../../db/undelivered-messages.ts'
import { enqueue, queues } from '../../db/queues.ts'
import type { Command } from './command.ts'
import { age, CommandFailed, iso, oneLine, UsageError, uuids, type OpsContext } from './ops-context.ts'

/** The same steps as the owner's Retry button (api/undelivered): mark it retrying, queue the send. */
async function requeueUndelivered(ctx: OpsContext, id: string): Promise<string | undefined> {
  const boss = await ctx.boss()
  return ctx.sql.begin(async (tx) => {
    const copy = await lockUndeliveredCopy(tx, id)
    if (!copy) return 'no such undelivered message'
    if (!copy.encrypted) return 'no copy was kept, so it cannot be sent again'
    if (!(await markUndeliveredRetrying(tx, copy.userId, id))) return 'it is already being sent again'
    await enqueue(tx, boss, queues.retryUndelivered, { undeliveredId: id })
    return undefined
  })
}

export const deadLetters: Command = {
  summary: 'forwards that failed for good (kept encrypted 30 days); `dead-letters requeue <id…>` sends them again',
  usage: 'dead-letters [--limit N] [--json]\ndead-letters requeue <id…> [--json]\n  the copies are age-encrypted to their owner; requeue sends a copy to its target again',
  options: { limit: { type: 'string' } },
  async run(ctx, values, [sub, ...ids]) {
    if (sub === 'requeue') {
      const refused: { id: string; reason: string }[] = []
      const requeued: string[] = []
      for (const id of uuids(ids, 'undelivered message')) {
        const reason = await requeueUndelivered(ctx, id)
        if (reason) refused.push({ id, reason })
        else requeued.push(id)
      }
      ctx.result({ requeued, refused })
      ctx.line(`requeued ${requeued.length} undelivered message(s)`)
      for (const r of refused) ctx.line(`not requeued ${r.id}: ${r.reason}`)
      if (refused.length) throw new CommandFailed(`${refused.length} message(s) not requeued`)
      return
    }
    if (sub !== undefined) throw new UsageError(`unknown dead-letters subcommand: ${sub}`)
    const n = values.limit === undefined ? 100 : Number(values.limit)
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000')
    const rows = await listAllUndelivered(ctx.sql, n)
    ctx.result(rows.map((r) => ({ ...r, reason: oneLine(r.reason) })))
    ctx.table(rows.map((r) => ({
      id: r.id, alias: r.aliasId, status: r.status, kept: r.kept ? `${r.size} B` : 'no', retries: r.retries,
      failed: iso(r.createdAt), expires: iso(r.expiresAt), reason: oneLine(r.reason),
    })))
  },
}

export const emailJob: Command = {
  summary: 'one outgoing e-mail job (compose or submission) and its queue entries',
  usage: 'email-job <id> [--json]',
  async run(ctx, _values, positionals) {
    const [id] = uuids(positionals, 'e-mail job')
    const row = await getEmailJob(ctx.sql, id)
    if (!row) throw new CommandFailed(`no e-mail job ${id}`)
    const entries = await (await ctx.boss()).findJobs(queues.sendEmail.name, { data: { emailJobId: id } })
    const view = {
      id: row.id, status: row.status, source: row.source, user: row.userId, alias: row.aliasId, priority: row.priority,
      retries: `${row.currentRetries}/${row.maxRetries}`, scheduledAt: row.scheduledAt, undoUntil: row.undoUntil,
      contentKept: row.content !== null, lastError: oneLine(row.lastError) || null,
      queueJobs: entries.map((j) => ({ id: j.id, state: j.state, retryCount: j.retryCount, startAfter: j.startAfter })),
    }
    ctx.result(view)
    ctx.line(`e-mail job  ${view.id}`)
    ctx.line(`status      ${view.status} (${view.source}, priority ${view.priority})`)
    ctx.line(`user        ${view.user}`)
    ctx.line(`alias       ${view.alias ?? '-'}`)
    ctx.line(`retries     ${view.retries}`)
    ctx.line(`scheduled   ${iso(view.scheduledAt)}`)
    ctx.line(`content     ${view.contentKept ? 'sealed, kept until sent' : 'wiped'}`)
    ctx.line(`last error  ${view.lastError ?? '-'}`)
    for (const j of view.queueJobs) ctx.line(`queue job   ${j.id} ${j.state} retries ${j.retryCount} next ${iso(j.startAfter)}`)
  },
}

export const spool: Command = {
  summary: 'the inbound spool: messages awaiting delivery, their bytes, the oldest',
  usage: 'spool [--json]',
  async run(ctx) {
    const s = await summarizeSpool(ctx.sql)
    const oldest = s.oldestReceivedAt ? (Date.now() - s.oldestReceivedAt.getTime()) / 1000 : null
    ctx.result({ ...s, oldestAgeSeconds: oldest })
    ctx.table([{ messages: s.messages, bytes: s.bytes, oldest: s.oldestReceivedAt ? `${iso(s.oldestReceivedAt)} (${age(oldest)})` : '-', 'pending deliveries': s.pendingDeliveries }])
  },
}
