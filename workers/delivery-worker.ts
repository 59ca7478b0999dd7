// The consumers of the `delivery` process: forward-email, forward-webhook, forward-reply,
// forward-operator, retry-undelivered, send-email, account-cleanup, housekeeping, and their dead-letter queues (a
// job out of retries fails its delivery for good, so the spooled message is still deleted once
// every target is done; an e-mail forward is then kept encrypted or reported first).
import type { PgBoss } from 'pg-boss'
import { abandonDelivery } from './delivery-step.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { abandonForwardEmail, forwardEmailHandler } from './forward-email.ts'
import { forwardOperatorHandler } from './forward-operator.ts'
import { forwardReplyHandler } from './forward-reply.ts'
import { forwardWebhookHandler } from './forward-webhook.ts'
import { wakeWhenDue } from './queue-due.ts'
import { deadLetterName, queues, work } from './queues.ts'
import { abandonUndeliveredRetry, retryUndeliveredHandler } from './retry-undelivered.ts'
import { sendEmailHandler } from './send-email.ts'
import { accountCleanup } from './account-cleanup.ts'
import { housekeeping, HOUSEKEEPING_CRON } from './housekeeping.ts'
import { abandonEmailJob } from '../db/email-jobs.ts'

export interface DeliveryWorkerOptions {
  /** jobs run at once per queue in this process */
  concurrency?: number
  /** how soon a retry that came due is picked up (new jobs wake the workers at once) */
  pollSeconds?: number
}

/** Starts every consumer; resolves with a function that stops the due-time wake-ups. */
export async function startDeliveryWorker(boss: PgBoss, deps: DeliveryDeps, options: DeliveryWorkerOptions = {}): Promise<() => Promise<void>> {
  const localConcurrency = options.concurrency ?? 8
  const pollSeconds = options.pollSeconds ?? 10
  await work(boss, queues.forwardEmail, forwardEmailHandler(deps), { localConcurrency, pollSeconds })
  await work(boss, queues.forwardWebhook, forwardWebhookHandler(deps), { localConcurrency, pollSeconds })
  await work(boss, queues.forwardReply, forwardReplyHandler(deps), { localConcurrency: Math.max(1, localConcurrency / 2), pollSeconds })
  await work(boss, queues.forwardOperator, forwardOperatorHandler(deps), { localConcurrency: 1, pollSeconds })
  const dead = (queue: typeof queues.forwardEmail) => ({ ...queue, name: deadLetterName(queue) })
  await work(boss, dead(queues.forwardEmail), ({ deliveryId }) => abandonForwardEmail(deps, deliveryId), { pollSeconds: 60 })
  for (const queue of [queues.forwardWebhook, queues.forwardReply, queues.forwardOperator]) {
    await work(boss, dead(queue), ({ deliveryId }) => abandonDelivery(deps, deliveryId), { pollSeconds: 60 })
  }
  await work(boss, queues.retryUndelivered, retryUndeliveredHandler(deps), { localConcurrency: Math.max(1, Math.floor(localConcurrency / 4)), pollSeconds })
  await work(boss, { ...queues.retryUndelivered, name: deadLetterName(queues.retryUndelivered) }, ({ undeliveredId }) => abandonUndeliveredRetry(deps.sql, undeliveredId), { pollSeconds: 60 })
  // outgoing mail (compose and submission) and account erasure
  // Four times the others, as a send holds no database connection while it talks to the relay:
  // two fetch loops with batches (burst while full) drain a backlog without polling pauses, and
  // large batches cost pg-boss fewer statements per mail.
  const send = await work(boss, queues.sendEmail, sendEmailHandler(deps), { localConcurrency: 2, batchSize: 2 * localConcurrency, pollSeconds })
  await work(boss, { ...queues.sendEmail, name: deadLetterName(queues.sendEmail) }, ({ emailJobId }) => abandonEmailJob(deps.sql, emailJobId), { pollSeconds: 60 })
  await work(boss, queues.accountCleanup, (payload) => accountCleanup(deps.sql, payload), { pollSeconds: 60 })
  await work(boss, queues.housekeeping, () => housekeeping(deps.sql), { pollSeconds: 60 })
  await boss.schedule(queues.housekeeping.name, HOUSEKEEPING_CRON, {}, { tz: 'UTC' })
  // a mail leaves when its undo window or scheduled time ends, not at the next idle poll
  return wakeWhenDue(deps.sql, boss, { [queues.sendEmail.name]: [send] })
}
