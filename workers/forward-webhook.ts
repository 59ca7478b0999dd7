// Queue `forward-webhook`: one inbound message POSTed as JSON to one of the alias's webhook URLs,
// signed per Standard Webhooks with the alias's secret. webhook-id is the delivery id, the same
// on every retry, so a receiver can drop duplicates. 2xx: done. 410 and other 4xx except 408/429:
// failed for good. Anything else (5xx, 408, 429, timeouts, connection errors): retried.
import { guardedPost, InvalidUrlError } from '../lib/guarded-post.ts'
import { log } from '../lib/log.ts'
import { BlockedAddressError } from '../lib/ssrf-guard.ts'
import { openWebhookSecret } from '../lib/webhook-secret.ts'
import { signWebhook } from '../lib/webhook-signature.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { runDelivery, type DeliveryOutcome } from './delivery-step.ts'
import { queues, type Payload } from './queues.ts'
import { buildWebhookPayload } from './webhook-payload.ts'

export const WEBHOOK_TIMEOUT_MS = 10_000

export class WebhookRetryError extends Error {
  constructor(status: number) {
    super(`webhook answered ${status}`)
    this.name = 'WebhookRetryError'
  }
}

function outcomeOf(status: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return { status: 'sent' }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { status: 'failed', reason: `http-${status}` }
  throw new WebhookRetryError(status) // 3xx (not followed), 408, 429, 5xx
}

export function forwardWebhookHandler(deps: DeliveryDeps) {
  return async ({ deliveryId }: Payload<typeof queues.forwardWebhook>) => {
    const outcome = await runDelivery(deps, deliveryId, async ({ delivery, alias, raw, meta }) => {
      if (!delivery.target) return { status: 'failed', reason: 'no-target' }
      const payload = await buildWebhookPayload(raw, meta, `${alias.alias}@${alias.domain}`, deps.config.webhookAttachmentMaxBytes)
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
        return outcomeOf(status)
      } catch (error) {
        if (error instanceof BlockedAddressError) return { status: 'failed', reason: 'blocked-address' }
        if (error instanceof InvalidUrlError) return { status: 'failed', reason: 'invalid-url' }
        throw error
      }
    })
    log.info('delivery.finished', { queue: queues.forwardWebhook.name, delivery: deliveryId, status: outcome?.status ?? 'already-done' })
  }
}
