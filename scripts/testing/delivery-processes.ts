// Real `delivery` processes (node workers/delivery/delivery.ts) against a MailEnv, for tests that kill
// one mid-job. The queue runs with its production policy (heartbeat, retry delay and backoff): the
// delivery processes themselves notice the lost job and run it again.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import type { QueueDefinition } from '../../db/queues.ts'
import type { MailEnv } from './mail-env.ts'
import { TEST_SECRET_KEY } from './test-app.ts'

export interface DeliveryProcesses {
  start(): ChildProcess
  close(): Promise<void>
}

export async function deliveryProcesses(env: MailEnv, queue: QueueDefinition): Promise<DeliveryProcesses> {
  await env.boss.updateQueue(queue.name, {
    retryDelay: queue.retryDelay, retryBackoff: queue.retryBackoff, retryDelayMax: queue.retryDelayMax ?? null,
    expireInSeconds: queue.expireInSeconds, heartbeatSeconds: queue.heartbeatSeconds ?? null,
  })
  const children: ChildProcess[] = []
  return {
    start() {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'workers', 'delivery', 'delivery.ts')], {
        env: {
          PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, SECRET_KEY: TEST_SECRET_KEY,
          OUTBOUND_SMTP_URL: env.relay.url, MAIL_DOMAINS: env.config.mailDomains.join(','), MX_HOSTNAME: env.config.mxHostname, DELIVERY_POLL_SECONDS: '1', METRICS_PORT: '0',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      children.push(child)
      return child
    },
    async close() {
      for (const child of children) child.kill('SIGKILL')
    },
  }
}
