// Queue `forward-webhook`: one inbound message POSTed as JSON to one of the alias's webhook URLs,
// signed per Standard Webhooks with the alias's secret. webhook-id is the delivery id, the same
// on every retry, so a receiver can drop duplicates. 2xx: done. 410 and other 4xx except 408/429:
// failed for good. Anything else (5xx, 408, 429, timeouts, connection errors): retried.
import { guardedPost, InvalidUrlError } from '../../lib/guarded-post.ts'
import { log } from '../../lib/log.ts'
import { BlockedAddressError } from '../../lib/ssrf-guard.ts'
import { openWebhookSecret } from '../../lib/webhook-secret.ts'
import { signWebhook } from '../../lib/webhook-signature.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { abandonDelivery, runDelivery } from './delivery-step.ts'
import type { DeliveryOutcome } from '../../db/delivery-finish.ts'
import { exhaustedReason, keepUndelivered } from './keep-undelivered.ts'
import { queues, type Payload } from '../../db/queues.ts'
import { buildWebhookPayload } from './webhook-payload.ts'

export const WEBHOOK_TIMEOUT_MS = 10_000

export class WebhookRetryError extends Error {
  /** recorded on the delivery as `http-<status>`, for the owner's list of failing webhooks */
  readonly httpStatus: number
  constructor(status: number) {
    super(`webhook answered ${status}`)
    this.name = 'WebhookRetryError'
    this.httpStatus = status
  }
}

function outcomeOf(status: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return { status: 'sent' }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { status: 'failed', reason: `http-${status}` }
  throw new WebhookRetryError(status) // 3xx (not followed), 408, 429, 5xx
}

/** The owner's report of a webhook that failed for good, from the outcome's reason code. */
export function webhookFailureReason(code: string): string {
  const http = /^http-(\d{3})$/.exec(code)
  if (http) return `The webhook answered HTTP ${http[1]}; a 4xx other than 408 or 429 is not retried`
  if (code === 'blocked-address') return 'The webhook URL points to a private or reserved address'
  if (code === 'invalid-url') return 'The webhook URL is not a valid http(s) URL'
  return code
}

export function forwardWebhookHandler(deps: DeliveryDeps) {
  return async ({ deliveryId }: Payload<typeof queues.forwardWebhook>) => {
    const outcome = await runDelivery(deps, deliveryId, async ({ tx, delivery, alias, message, meta }) => {
      if (!delivery.target) return { status: 'failed', reason: 'no-target' }
      const payload = await buildWebhookPayload(await message.whole(), meta, `${alias.alias}@${alias.domain}`, deps.config.webhookAttachmentMaxBytes)
      const body = JSON.stringify(payload)
      const timestamp = Math.floor(Date.now() / 1000)
      const secret = openWebhookSecret(deps.config.secretKey, alias)
      if (!secret) throw new Error('alias has no webhook secret') // retried; only a row written around the API lacks one
      try {
        const { status } = await guardedPost(delivery.target, {
          body,
          headers: { 'webhook-id': delivery.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, delivery.id, timestamp, body) },
          timeoutMs: WEBHOOK_TIMEOUT_MS,
          allowPrivate: deps.config.allowPrivateNetworks,
          lookup: deps.lookup,
        })
        return await reported(outcomeOf(status))
      } catch (error) {
        if (error instanceof BlockedAddressError) return reported({ status: 'failed', reason: 'blocked-address' })
        if (error instanceof InvalidUrlError) return reported({ status: 'failed', reason: 'invalid-url' })
        throw error
      }

      // A failure for good goes on the owner's Undelivered list in the same transaction.
      async function reported(result: DeliveryOutcome): Promise<DeliveryOutcome> {
        if (result.status === 'failed') await keepUndelivered(tx, { kind: 'webhook', alias, target: delivery.target!, reason: webhookFailureReason(result.reason) })
        return result
      }
    })
    log.info('delivery.finished', { queue: queues.forwardWebhook.name, delivery: deliveryId, status: outcome?.status ?? 'already-done' })
  }
}

/** The dead-letter copy of a webhook job that ran out of retries: failed for good, and reported. */
export function abandonForwardWebhook(deps: DeliveryDeps, deliveryId: string): Promise<void> {
  return abandonDelivery(deps, deliveryId, async ({ tx, alias, delivery }) => {
    if (delivery.target) await keepUndelivered(tx, { kind: 'webhook', alias, target: delivery.target, reason: exhaustedReason(delivery.attempts, delivery.lastError) })
  })
}
