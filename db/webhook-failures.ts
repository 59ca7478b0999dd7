// Webhook deliveries that failed and wait for their next try (issue 15): the owner sees when, to
// where, why (an HTTP status or a network reason) and when the queue tries again, and can make the
// try due now or drop the delivery. The waiting job is found by its delivery id in pg-boss's table.
import type { Db } from './client.ts'

export interface WebhookFailureRow {
  id: string
  aliasId: string
  alias: string
  domain: string
  target: string
  attempts: number
  lastError: string | null
  lastAttemptAt: Date | null
  nextRetryAt: Date | null
}

const failureColumns = (db: Db, queueName: string) => db`
  d.id, d.alias_id, a.alias, a.domain, d.target, d.attempts, d.last_error, d.last_attempt_at,
  (select j.start_after from pgboss.job j
   where j.name = ${queueName} and j.state = 'retry' and j.start_after > now() and j.data->>'deliveryId' = d.id::text limit 1) as next_retry_at`

/** The user's failing webhook deliveries, last failure first (a dead endpoint must not make the list unbounded). */
export async function listWebhookFailures(db: Db, userId: string, queueName: string, limit = 100): Promise<WebhookFailureRow[]> {
  return db<WebhookFailureRow[]>`
    select ${failureColumns(db, queueName)}
    from deliveries d join aliases a on a.id = d.alias_id
    where a.user_id = ${userId} and d.kind = 'webhook' and d.status = 'pending' and d.attempts > 0
    order by d.last_attempt_at desc nulls last, d.id limit ${limit}`
}

/** One of them, only if it is the user's and still failing. */
export async function findWebhookFailure(db: Db, userId: string, deliveryId: string, queueName: string): Promise<WebhookFailureRow | undefined> {
  const [row] = await db<WebhookFailureRow[]>`
    select ${failureColumns(db, queueName)}
    from deliveries d join aliases a on a.id = d.alias_id
    where d.id = ${deliveryId} and a.user_id = ${userId} and d.kind = 'webhook' and d.status = 'pending' and d.attempts > 0`
  return row
}
