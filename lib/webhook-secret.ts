// The per-alias webhook signing secret (Standard Webhooks "whsec_" + base64 of 32 random bytes),
// sealed at rest like the other secrets: AES-256-GCM under SECRET_KEY, the alias id as associated
// data, so a sealed secret copied to another alias does not open.
import { randomBytes } from 'node:crypto'
import { SecretBox } from './secret-box.ts'

const boxes = new Map<string, SecretBox>()
function box(secretKey: string): SecretBox {
  let b = boxes.get(secretKey)
  if (!b) boxes.set(secretKey, (b = new SecretBox(secretKey, 'webhook-secret')))
  return b
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function sealWebhookSecret(secretKey: string, aliasId: string, secret: string): Buffer {
  return box(secretKey).seal(secret, aliasId)
}

export interface StoredWebhookSecret { id: string; webhookSecret: string | null; webhookSecretSealed: Uint8Array | null }

/** The secret of an alias row: sealed, or the plaintext of before migration 0017 until it is sealed. */
export function openWebhookSecret(secretKey: string, row: StoredWebhookSecret): string | undefined {
  if (row.webhookSecretSealed) return box(secretKey).openText(row.webhookSecretSealed, row.id)
  return row.webhookSecret ?? undefined
}
