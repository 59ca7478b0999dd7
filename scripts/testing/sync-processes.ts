// Real `sync` processes (node workers/sync/sync.ts) for tests that kill one mid-sync or run several:
// the sync queue's heartbeat is cut to its minimum (10 s) and a pg-boss monitor fails the jobs
// of killed ones once their heartbeat stops, so a retry or the next job can run.
import { PgBoss } from 'pg-boss'
import { queues } from '../../db/queues.ts'
import type { TestApp } from './test-app.ts'
import { workerProcesses, type WorkerProcesses } from './worker-processes.ts'

export type SyncProcesses = WorkerProcesses

export async function syncProcesses(t: TestApp, caFile: string, env: Record<string, string> = {}): Promise<SyncProcesses> {
  await t.boss.updateQueue(queues.syncMailbox.name, { heartbeatSeconds: 10 })
  const monitor = new PgBoss({ connectionString: t.db.url, schema: 'pgboss', max: 2, supervise: true, schedule: false, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 })
  monitor.on('error', () => {})
  await monitor.start()
  const processes = workerProcesses('workers/sync/sync.ts', {
    DATABASE_URL: t.db.url, DATA_DIR: t.config.dataDir, ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: caFile, ...env,
  })
  return {
    start: processes.start,
    async close() {
      await processes.close()
      await monitor.stop({ graceful: false })
    },
  }
}
