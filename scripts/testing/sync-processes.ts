// Real `sync` processes (node workers/sync/sync.ts) for tests that kill one mid-sync or run several:
// the sync queue's heartbeat is cut to its minimum (10 s) and a pg-boss monitor fails the jobs
// of killed ones once their heartbeat stops, so a retry or the next job can run.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { PgBoss } from 'pg-boss'
import { queues } from '../../db/queues.ts'
import type { TestApp } from './test-app.ts'
import { TEST_SECRET_KEY } from './test-app.ts'

export interface SyncProcesses {
  start(): ChildProcess
  close(): Promise<void>
}

export async function syncProcesses(t: TestApp, caFile: string, env: Record<string, string> = {}): Promise<SyncProcesses> {
  await t.boss.updateQueue(queues.syncMailbox.name, { heartbeatSeconds: 10 })
  const monitor = new PgBoss({ connectionString: t.db.url, schema: 'pgboss', max: 2, supervise: true, schedule: false, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 })
  monitor.on('error', () => {})
  await monitor.start()
  const children: ChildProcess[] = []
  return {
    start() {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'workers', 'sync', 'sync.ts')], {
        env: {
          PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: t.db.url, DATA_DIR: t.config.dataDir, SECRET_KEY: TEST_SECRET_KEY,
          ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: caFile, ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      children.push(child)
      return child
    },
    async close() {
      for (const child of children) {
        if (child.exitCode !== null || child.signalCode !== null) continue
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        await exited
      }
      await monitor.stop({ graceful: false })
    },
  }
}
