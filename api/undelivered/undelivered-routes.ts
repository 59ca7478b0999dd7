// Undelivered mail (issue #6): the owner's list, Retry (the kept encrypted copy goes to the
// target again, through the retry-undelivered queue) and Delete. Webhook deliveries that are
// failing and wait for their next try (issue 15): the list, Retry now and Drop.
import { Hono } from 'hono'
import { deleteUndeliveredMessage, findUndeliveredMessage, listUndeliveredMessages, markUndeliveredRetrying, type UndeliveredRow } from '../../db/undelivered-messages.ts'
import { flushDeliveryJob } from '../../db/deferred-jobs.ts'
import { findWebhookFailure, listWebhookFailures, type WebhookFailureRow } from '../../db/webhook-failures.ts'
import { dropDelivery } from '../../db/delivery-finish.ts'
import { announceDue } from '../../db/queue-due.ts'
import { enqueue, queues } from '../../db/queues.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import type { UndeliveredView, WebhookFailureView } from '../../shared/undelivered-schemas.ts'

const WEBHOOK_QUEUE = queues.forwardWebhook.name

function webhookFailureView(row: WebhookFailureRow): WebhookFailureView {
  return {
    id: row.id, aliasId: row.aliasId, alias: `${row.alias}@${row.domain}`, target: row.target, attempts: row.attempts,
    lastError: row.lastError, lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null, nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
  }
}

function undeliveredView(row: UndeliveredRow): UndeliveredView {
  return {
    id: row.id, kind: row.kind, aliasId: row.aliasId, alias: `${row.alias}@${row.domain}`, target: row.target, reason: row.reason,
    kept: row.kept, status: row.status, retries: row.retries,
    createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(),
  }
}

export const undeliveredRoutes = new Hono<AppEnv>()
  .get('/webhooks', signedIn, async (c) => {
    const rows = await listWebhookFailures(c.var.deps.sql, c.var.user.id, WEBHOOK_QUEUE)
    return c.json({ failures: rows.map(webhookFailureView) })
  })
  .post('/webhooks/:deliveryId/retry', signedIn, async (c) => {
    const { sql } = c.var.deps
    const id = c.req.param('deliveryId')
    if (!(await findWebhookFailure(sql, c.var.user.id, id, WEBHOOK_QUEUE))) return notFound(c)
    const flushed = await sql.begin(async (tx) => {
      if (!(await flushDeliveryJob(tx, WEBHOOK_QUEUE, id))) return false
      await announceDue(tx, WEBHOOK_QUEUE, Date.now()) // idle workers fetch at once, not at their next poll
      return true
    })
    if (!flushed) return c.json({ message: 'This delivery is being tried right now.' }, 409)
    return c.json({ message: 'Trying again now' }, 202)
  })
  .delete('/webhooks/:deliveryId', signedIn, async (c) => {
    const { sql } = c.var.deps
    const id = c.req.param('deliveryId')
    if (!(await findWebhookFailure(sql, c.var.user.id, id, WEBHOOK_QUEUE))) return notFound(c)
    if (!(await dropDelivery(sql, id, 'dropped-by-owner'))) return c.json({ message: 'This delivery has just finished.' }, 409)
    return c.json({ message: 'Webhook delivery dropped' })
  })
  .get('/', signedIn, async (c) => {
    const rows = await listUndeliveredMessages(c.var.deps.sql, c.var.user.id)
    return c.json({ undelivered: rows.map(undeliveredView) })
  })
  .post('/:undeliveredId/retry', signedIn, async (c) => {
    const { sql, boss } = c.var.deps
    const userId = c.var.user.id
    const id = c.req.param('undeliveredId')
    const row = await findUndeliveredMessage(sql, userId, id)
    if (!row) return notFound(c)
    if (!row.kept) return c.json({ message: 'No copy of this message was kept, so it cannot be sent again.' }, 409)
    const queued = await sql.begin(async (tx) => {
      if (!(await markUndeliveredRetrying(tx, userId, id))) return false
      await enqueue(tx, boss, queues.retryUndelivered, { undeliveredId: id })
      return true
    })
    if (!queued) return c.json({ message: 'This message is already being sent again.' }, 409)
    return c.json({ message: 'Sending it again', undelivered: undeliveredView((await findUndeliveredMessage(sql, userId, id)) ?? row) }, 202)
  })
  .delete('/:undeliveredId', signedIn, async (c) => {
    if (!(await deleteUndeliveredMessage(c.var.deps.sql, c.var.user.id, c.req.param('undeliveredId')))) return notFound(c)
    return c.json({ message: 'Undelivered message deleted' })
  })
