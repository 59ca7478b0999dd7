// The real HTTP app on a test database, for API tests through app.request().
import path from 'node:path'
import type { PgBoss } from 'pg-boss'
import { createApp } from '../../api/app.ts'
import { loadConfig, type Config } from '../../lib/config.ts'
import { createBoss, createQueues } from '../../db/queues.ts'
import { attachMailbox } from './mailbox.ts'
import { createTestDatabase, type TestDatabase } from './test-database.ts'

export interface TestApp {
  app: ReturnType<typeof createApp>
  db: TestDatabase
  boss: PgBoss
  config: Config
  close(): Promise<void>
}

export const TEST_SECRET_KEY = 'test-secret-key-that-is-long-enough-0123456789'

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', SECRET_KEY: TEST_SECRET_KEY, DATA_DIR: path.join(import.meta.dirname, '..', '..', '.data', 'test'), ...env })
}

/** `imapCa`: the test IMAP server's CA, trusted by the API's own IMAP connections (the search's body words). */
export async function createTestApp(env: Record<string, string> = {}, extra: { imapCa?: string } = {}): Promise<TestApp> {
  const db = await createTestDatabase()
  const boss = createBoss(db.url, { max: 3, maintenance: false })
  await boss.start()
  await createQueues(boss)
  const config = testConfig({ DATABASE_URL: db.url, ...env })
  const app = attachMailbox(createApp({ sql: db.sql, boss, config, webRoot: path.join(import.meta.dirname, '..', '..', 'dist', 'web'), ...extra }), { sql: db.sql, secretKey: config.secretKey })
  return {
    app, db, boss, config,
    async close() {
      await boss.stop({ graceful: false })
      await db.drop()
    },
  }
}
