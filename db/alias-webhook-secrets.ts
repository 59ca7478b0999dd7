// The per-alias webhook signing secret, sealed (lib/webhook-secret.ts): shown to its owner on the
// dashboard, rotated on request, both scoped to the owner (another user's alias is absent); and
// the sealing of secrets stored in plaintext before migration 0017.
import { generateWebhookSecret, openWebhookSecret, sealWebhookSecret, type StoredWebhookSecret } from '../lib/webhook-secret.ts'
import type { Db } from './client.ts'

export async function getWebhookSecret(db: Db, secretKey: string, aliasId: string, userId: string): Promise<string | undefined> {
  const [row] = await db<StoredWebhookSecret[]>`
    select id, webhook_secret, webhook_secret_sealed from aliases where id = ${aliasId} and user_id = ${userId}`
  return row && openWebhookSecret(secretKey, row)
}

/** A fresh secret, sealed; the old one stops verifying at once. */
export async function rotateWebhookSecret(db: Db, secretKey: string, aliasId: string, userId: string): Promise<string | undefined> {
  const secret = generateWebhookSecret()
  const rows = await db`
    update aliases set webhook_secret_sealed = ${sealWebhookSecret(secretKey, aliasId, secret)}, webhook_secret = null, updated_at = now()
    where id = ${aliasId} and user_id = ${userId} returning id`
  return rows.length === 1 ? secret : undefined
}

export async function listPlaintextWebhookSecrets(db: Db, limit: number): Promise<{ id: string; webhookSecret: string }[]> {
  return db`select id, webhook_secret from aliases where webhook_secret is not null limit ${limit}`
}

/** Seals the given plaintext secrets in one statement; a row whose secret changed meanwhile is left alone. */
export async function sealPlaintextWebhookSecrets(db: Db, secretKey: string, rows: { id: string; webhookSecret: string }[]): Promise<number> {
  if (rows.length === 0) return 0
  const sealed = await db`
    update aliases a set webhook_secret_sealed = decode(v.sealed_hex, 'hex'), webhook_secret = null
    from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.webhookSecret)}::text[],
                ${rows.map((r) => sealWebhookSecret(secretKey, r.id, r.webhookSecret).toString('hex'))}::text[]) as v(id, plaintext, sealed_hex)
    where a.id = v.id and a.webhook_secret = v.plaintext
    returning a.id`
  return sealed.length
}
