// Real `delivery` processes (node workers/delivery/delivery.ts) against a MailEnv, for tests that kill
// one mid-job. The queue runs with its production policy (heartbeat, retry delay and backoff): the
// delivery processes themselves notice the lost job and run it again.
import type { QueueDefinition } from '../../db/queues.ts'
import type { MailEnv } from './mail-env.ts'
import { workerProcesses, type WorkerProcesses } from './worker-processes.ts'

export type DeliveryProcesses = WorkerProcesses

export async function deliveryProcesses(env: MailEnv, queue: QueueDefinition): Promise<DeliveryProcesses> {
  await productionQueuePolicy(env, queue)
  return workerProcesses('workers/delivery/delivery.ts', deliveryEnv(env))
}

/** The queue's own retry and heartbeat policy, instead of the quick retries of a MailEnv. */
export async function productionQueuePolicy(env: MailEnv, queue: QueueDefinition): Promise<void> {
  await env.boss.updateQueue(queue.name, {
    retryDelay: queue.retryDelay, retryBackoff: queue.retryBackoff, retryDelayMax: queue.retryDelayMax ?? null,
    expireInSeconds: queue.expireInSeconds, heartbeatSeconds: queue.heartbeatSeconds ?? null,
  })
}

/** The environment of a delivery process on this MailEnv (with the test secret added by workerProcesses). */
export function deliveryEnv(env: MailEnv): Record<string, string> {
  return {
    DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir,
    OUTBOUND_SMTP_URL: env.relay.url, MAIL_DOMAINS: env.config.mailDomains.join(','), MX_HOSTNAME: env.config.mxHostname, DELIVERY_POLL_SECONDS: '1', METRICS_PORT: '0',
    // the authentication check the MX left to the delivery asks an offline DNS, not the machine's
    DNS_SERVERS: env.dnsServer, DNS_TIMEOUT_MS: String(env.config.dnsTimeoutMs),
  }
}
