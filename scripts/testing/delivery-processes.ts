// Real `delivery` processes (node workers/delivery.ts) against a MailEnv, for tests that kill
// one mid-job: the queue's lease is cut to seconds and a pg-boss monitor expires lost jobs.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { PgBoss } from 'pg-boss'
import type { QueueDefinition } from '../../workers/queues.ts'
import type { MailEnv } from './mail-env.ts'
import { TEST_SECRET_KEY } from './test-app.ts'

export interface DeliveryProcesses {
  start(): ChildProcess
  close(): Promise<void>
}

export async function deliveryProcesses(env: MailEnv, queue: QueueDefinition): Promise<DeliveryProcesses> {
  await env.boss.updateQueue(queue.name, { expireInSeconds: 3, heartbeatSeconds: null })
  const monitor = new PgBoss({ connectionString: env.db.url, schema: 'pgboss', max: 2, supervise: true, schedule: false, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 })
  monitor.on('error', () => {})
  await monitor.start()
  const children: ChildProcess[] = []
  return {
    start() {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'workers', 'delivery.ts')], {
        env: {
          PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, SECRET_KEY: TEST_SECRET_KEY,
          OUTBOUND_SMTP_URL: env.relay.url, MAIL_DOMAINS: env.config.mailDomains.join(','), MX_HOSTNAME: env.config.mxHostname, DELIVERY_POLL_SECONDS: '1',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      children.push(child)
      return child
    },
    async close() {
      for (const child of children) child.kill('SIGKILL')
      await monitor.stop({ graceful: false })
    },
  }
}
