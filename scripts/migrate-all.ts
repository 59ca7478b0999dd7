// Brings a database up to date: our SQL migrations, the data steps SQL cannot do (sealing secrets
// older versions stored in plaintext needs SECRET_KEY), then pg-boss's schema and every queue.
import { listPlaintextWebhookSecrets, sealPlaintextWebhookSecrets } from '../db/alias-webhook-secrets.ts'
import { createSql, type Sql } from '../db/client.ts'
import { migrate } from '../db/migrate.ts'
import { createBoss, createQueues } from '../db/queues.ts'

/** `secretKey` seals what is left in plaintext; without it (a fresh scratch database) there is nothing to seal. */
export async function migrateAll(databaseUrl: string, secretKey?: string): Promise<string[]> {
  const sql = createSql(databaseUrl, { max: 2, name: 'veilmail-migrate' })
  try {
    const applied = await migrate(sql)
    if (secretKey) await sealWebhookSecrets(sql, secretKey)
    const boss = createBoss(databaseUrl, { max: 2, maintenance: false })
    await boss.start()
    await createQueues(boss)
    await boss.stop({ graceful: false })
    return applied
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/** Migration 0017's data step, in batches; safe beside running processes and a second migrator. */
export async function sealWebhookSecrets(sql: Sql, secretKey: string): Promise<void> {
  for (let rows = await listPlaintextWebhookSecrets(sql, 500); rows.length > 0; rows = await listPlaintextWebhookSecrets(sql, 500)) {
    await sealPlaintextWebhookSecrets(sql, secretKey, rows)
  }
}
