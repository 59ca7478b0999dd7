// The per-alias webhook signing secret (Standard Webhooks "whsec_…"): shown to its owner on the
// dashboard, rotated on request. Both are scoped to the owner: another user's alias is absent.
import type { Db } from './client.ts'

export async function getWebhookSecret(db: Db, aliasId: string, userId: string): Promise<string | undefined> {
  const [row] = await db<{ webhookSecret: string }[]>`select webhook_secret from aliases where id = ${aliasId} and user_id = ${userId}`
  return row?.webhookSecret
}

/** A fresh secret (the column default: 32 strong random bytes); the old one stops verifying at once. */
export async function rotateWebhookSecret(db: Db, aliasId: string, userId: string): Promise<string | undefined> {
  const [row] = await db<{ webhookSecret: string }[]>`
    update aliases set webhook_secret = default, updated_at = now() where id = ${aliasId} and user_id = ${userId}
    returning webhook_secret`
  return row?.webhookSecret
}
