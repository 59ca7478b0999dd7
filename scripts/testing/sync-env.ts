// What the sync suites start: a private Dovecot, the API on a scratch database, the sync worker in
// this process (schedule off, polls every second) and a registered user.
import { startSyncWorker } from '../../workers/sync/sync-worker.ts'
import { ApiClient } from './api-client.ts'
import { startDovecot, type Dovecot, type DovecotOptions } from './dovecot.ts'
import { createTestApp, type TestApp } from './test-app.ts'

export interface SyncEnv {
  dovecot: Dovecot
  t: TestApp
  user: ApiClient
  close(): Promise<void>
}

/** `env` is added to the app's environment (ALLOW_PRIVATE_NETWORKS is on: Dovecot listens on loopback). */
export async function startSyncEnv(options: { dovecot?: DovecotOptions; env?: (dovecot: Dovecot) => Record<string, string> } = {}): Promise<SyncEnv> {
  const dovecot = await startDovecot(options.dovecot)
  const t = await createTestApp({ ...options.env?.(dovecot), ALLOW_PRIVATE_NETWORKS: 'true' }, { imapCa: dovecot.ca })
  const stop = await startSyncWorker(t.boss, { sql: t.db.sql, boss: t.boss, config: t.config, imapCa: dovecot.ca }, { concurrency: 2, intervalSeconds: 3600, pollSeconds: 1 })
  const user = new ApiClient(t.app)
  await user.register()
  return {
    dovecot, t, user,
    async close() {
      await stop()
      await t.close()
      await dovecot.stop()
    },
  }
}
