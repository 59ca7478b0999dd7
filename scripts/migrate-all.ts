// Brings a database up to date: our SQL migrations, then pg-boss's schema and every queue.
import { createSql } from '../db/client.ts'
import { migrate } from '../db/migrate.ts'
import { createBoss, createQueues } from '../workers/queues.ts'

export async function migrateAll(databaseUrl: string): Promise<string[]> {
  const sql = createSql(databaseUrl, { max: 2, name: 'veilmail-migrate' })
  try {
    const applied = await migrate(sql)
    const boss = createBoss(databaseUrl, { max: 2, maintenance: false })
    await boss.start()
    await createQueues(boss)
    await boss.stop({ graceful: false })
    return applied
  } finally {
    await sql.end({ timeout: 5 })
  }
}
