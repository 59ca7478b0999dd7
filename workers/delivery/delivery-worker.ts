// The consumers of the `delivery` process: forward-email, forward-webhook, forward-reply,
// forward-operator, retry-undelivered, send-email, account-cleanup, housekeeping, and their dead-letter queues (a
// job out of retries fails its delivery for good, so the spooled message is still deleted once
// every target is done; an e-mail forward is then kept encrypted or reported first).
import type { PgBoss } from 'pg-boss'
import { abandonDelivery } from './delivery-step.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { abandonForwardEmail, forwardEmailHandler } from './forward-email.ts'
import { sendBounceNotice } from './bounce-notice.ts'
import { forwardOperatorHandler } from './forward-operator.ts'
import { forwardReplyHandler } from './forward-reply.ts'
import { abandonForwardWebhook, forwardWebhookHandler } from './forward-webhook.ts'
import { wakeWhenDue } from '../../db/queue-due.ts'
import { allQueues, deadLetterName, queues, work, type QueueDefinition } from '../../db/queues.ts'
import { abandonUndeliveredRetry, retryUndeliveredHandler } from './retry-undelivered.ts'
import { sendEmailHandler } from './send-email.ts'
import { accountCleanup } from './account-cleanup.ts'
import { housekeeping, HOUSEKEEPING_CRON } from './housekeeping.ts'
import { DOMAIN_RECHECK_CRON, recheckDomains } from './domain-recheck.ts'
import { abandonEmailJob } from '../../db/email-jobs.ts'
import { flushDeferredJobs } from '../../db/deferred-jobs.ts'
import { log } from '../../lib/log.ts'
import { retryLostJobs } from '../lost-jobs.ts'
import { watchRelay } from './relay-watch.ts'

export interface DeliveryWorkerOptions {
  /** DELIVERY_CONCURRENCY: the base every queue's concurrency is derived from */
  concurrency?: number
  /** QUEUE_CONCURRENCY: jobs at once for the queues it names, instead of the derived figure */
  queueConcurrency?: Record<string, number>
  /** how soon a retry that came due is picked up (new jobs wake the workers at once) */
  pollSeconds?: number
}

/** Jobs at once per queue in one delivery process. */
export function concurrencyPerQueue(base: number, overrides: Record<string, number> = {}): Record<string, number> {
  const unknown = Object.keys(overrides).filter((name) => !allQueues.some((q) => q.name === name))
  if (unknown.length) throw new QueueConcurrencyError(`QUEUE_CONCURRENCY: no queue named ${unknown.join(', ')} (queues: ${allQueues.map((q) => q.name).join(', ')})`)
  return {
    // Eight times the others, fetched in two batches of 4 × `base`: a batch's forwards share their
    // statements and transaction (delivery-step.ts) and one fetch and one completion of pg-boss's, so
    // the cost per forward falls with the batch's size. npm run bench -- mx, CPU per message of the
    // delivery / Postgres, new connection per message: batches of 8: 0.97-0.99 / 0.53-0.61 ms once
    // warm, 2.21-2.33 ms for the whole side, end-to-end 0.78-0.82× Postfix; batches of 16: 0.83-0.87
    // / 0.41-0.48; batches of 32: 0.75-0.83 / 0.37-0.40, whole side 1.78-1.93 ms, end-to-end
    // 1.04-1.18×; of 64: no lower (0.81 / 0.39). Forwards beyond OUTBOUND_SMTP_CONNECTIONS wait for
    // a relay connection of the pool. (Batches of 4 against 8, earlier: Postgres 1.7 against 1.1 ms.)
    [queues.forwardEmail.name]: 8 * base,
    [queues.forwardWebhook.name]: base,
    [queues.forwardReply.name]: Math.max(1, Math.floor(base / 2)),
    [queues.forwardOperator.name]: 1,
    [queues.retryUndelivered.name]: Math.max(1, Math.floor(base / 4)),
    // Four times the others, as a send holds no database connection while it talks to the relay.
    [queues.sendEmail.name]: 4 * base,
    [queues.accountCleanup.name]: 1,
    [queues.housekeeping.name]: 1,
    [queues.domainRecheck.name]: 1,
    ...overrides,
  }
}

export class QueueConcurrencyError extends Error {}

/** The queues whose jobs leave through the outbound relay. */
const RELAYED = [queues.forwardEmail, queues.forwardReply, queues.forwardOperator, queues.retryUndelivered, queues.sendEmail]

/** Starts every consumer; resolves with a function that stops its timers (due-time wake-ups, relay probes). */
export async function startDeliveryWorker(boss: PgBoss, deps: DeliveryDeps, options: DeliveryWorkerOptions = {}): Promise<() => Promise<void>> {
  const concurrency = concurrencyPerQueue(options.concurrency ?? 8, options.queueConcurrency)
  const pollSeconds = options.pollSeconds ?? 10
  const loops: Record<string, string[]> = {}
  // when the relay answers again, mail deferred while it was down leaves at once (here, and at
  // the next poll in other delivery processes)
  const relay = watchRelay(deps.transport, async () => {
    const flushed = await flushDeferredJobs(deps.sql, RELAYED.map((q) => q.name))
    log.info('relay.back', { flushed })
    for (const queue of RELAYED) for (const id of loops[queue.name] ?? []) boss.notifyWorker(id)
  })
  // every handler below sends through the watch (and the caller's close() reaches the relay through it)
  deps.transport = relay.transport
  deps.boss ??= boss
  const run = (queue: QueueDefinition) => ({ concurrency: concurrency[queue.name], pollSeconds })
  const dead = <Q extends QueueDefinition>(queue: Q): Q => ({ ...queue, name: deadLetterName(queue) })
  const idle = { pollSeconds: 60 }
  // Forwards to mailboxes in two fetch loops of batches, as outgoing mail below: a batch is fetched
  // and completed in one statement each (pg-boss's, on the job table), not one of each per forward.
  // The forwards of a batch all go to the one relay, so none holds up the others for long.
  const forwardConcurrency = concurrency[queues.forwardEmail.name]
  loops[queues.forwardEmail.name] = await work(boss, queues.forwardEmail, forwardEmailHandler(deps), { ...run(queues.forwardEmail), batchSize: Math.ceil(forwardConcurrency / 2) })
  loops[queues.forwardWebhook.name] = await work(boss, queues.forwardWebhook, forwardWebhookHandler(deps), run(queues.forwardWebhook))
  loops[queues.forwardReply.name] = await work(boss, queues.forwardReply, forwardReplyHandler(deps), run(queues.forwardReply))
  loops[queues.forwardOperator.name] = await work(boss, queues.forwardOperator, forwardOperatorHandler(deps), run(queues.forwardOperator))
  await work(boss, dead(queues.forwardEmail), ({ deliveryId }) => abandonForwardEmail(deps, deliveryId), idle)
  await work(boss, dead(queues.forwardWebhook), ({ deliveryId }) => abandonForwardWebhook(deps, deliveryId), idle)
  for (const queue of [queues.forwardReply, queues.forwardOperator]) {
    await work(boss, dead(queue), ({ deliveryId }) => abandonDelivery(deps, deliveryId), idle)
  }
  loops[queues.retryUndelivered.name] = await work(boss, queues.retryUndelivered, retryUndeliveredHandler(deps), run(queues.retryUndelivered))
  await work(boss, dead(queues.retryUndelivered), ({ undeliveredId }) => abandonUndeliveredRetry(deps.sql, undeliveredId), idle)
  // Outgoing mail in two fetch loops of large batches: the handler claims and marks its batch in
  // shared statements (lib/coalesce.ts), so large batches cost pg-boss fewer statements per mail.
  const sendConcurrency = concurrency[queues.sendEmail.name]
  loops[queues.sendEmail.name] = await work(boss, queues.sendEmail, sendEmailHandler(deps, boss), { ...run(queues.sendEmail), batchSize: Math.ceil(sendConcurrency / 2) })
  await work(boss, dead(queues.sendEmail), ({ emailJobId }) => abandonEmailJob(deps.sql, emailJobId), idle)
  await work(boss, queues.accountCleanup, (payload) => accountCleanup(deps.sql, payload), { ...run(queues.accountCleanup), ...idle })
  await work(boss, queues.bounceNotice, ({ userId }) => sendBounceNotice(deps.sql, { boss, config: deps.config }, userId), { ...run(queues.bounceNotice), ...idle })
  await work(boss, queues.housekeeping, () => housekeeping(deps.sql), { ...run(queues.housekeeping), ...idle })
  await boss.schedule(queues.housekeeping.name, HOUSEKEEPING_CRON, {}, { tz: 'UTC' })
  await work(boss, queues.domainRecheck, () => recheckDomains(deps, boss), { ...run(queues.domainRecheck), ...idle })
  await boss.schedule(queues.domainRecheck.name, DOMAIN_RECHECK_CRON, {}, { tz: 'UTC' })
  // a mail leaves when its undo window or scheduled time ends, and a flushed job (npm run ops --
  // flush) at once, not at the next idle poll
  const stopWakeUps = await wakeWhenDue(deps.sql, boss, loops)
  // a job whose worker died runs again now, not after the retry delay meant for a relay that asked us to wait
  const stopLostSweep = retryLostJobs(deps.sql, allQueues.map((q) => q.name))
  return async () => {
    stopLostSweep()
    relay.stop()
    await stopWakeUps()
  }
}
