// Standard Webhooks signatures (standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256>`
// over `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64 bytes after `whsec_` of
// the alias's secret. `verifyWebhook` is what a receiver runs (documented in docs/webhooks.md).
import { createHmac, timingSafeEqual } from 'node:crypto'

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')
}

/** True when one of the signatures matches and the timestamp is within `toleranceSeconds` of now. */
export function verifyWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const id = String(headers['webhook-id'] ?? '')
  const timestamp = Number(headers['webhook-timestamp'])
  const signatures = String(headers['webhook-signature'] ?? '').split(' ')
  if (!id || !Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body))
  return signatures.some((s) => {
    const candidate = Buffer.from(s)
    return candidate.length === expected.length && timingSafeEqual(candidate, expected)
  })
}
