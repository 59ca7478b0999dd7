// The `delivery` process: queue consumers for inbound forwarding (e-mail, webhooks, replies).
import { createSql } from '../../db/client.ts'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { errorFields, log, setLogProcess } from '../../lib/log.ts'
import { onShutdown } from '../../lib/process-lifecycle.ts'
import { startHeartbeat } from '../../db/heartbeat.ts'
import { serveMetrics } from '../../db/metrics.ts'
import { DkimConfigError, loadDkimKeys } from '../../lib/dkim-keys.ts'
import { createDeliveryDeps } from './delivery-deps.ts'
import { DkimSigner } from '../mail/dkim-signer.ts'
import { concurrencyPerQueue, QueueConcurrencyError, startDeliveryWorker } from './delivery-worker.ts'
import { createBoss, createQueues } from '../../db/queues.ts'

setLogProcess('delivery')
const cfg = config()
let dkim: DkimSigner
try {
  dkim = new DkimSigner(loadDkimKeys(cfg))
} catch (error) {
  if (!(error instanceof DkimConfigError)) throw error
  process.stderr.write(`Invalid configuration:\n  ${error.message}\n`)
  process.exit(78) // EX_CONFIG
}
const databaseUrl = requireDatabaseUrl(cfg)
const { concurrency, pollSeconds, queueConcurrency } = cfg.delivery
try {
  concurrencyPerQueue(concurrency, queueConcurrency)
} catch (error) {
  if (!(error instanceof QueueConcurrencyError)) throw error
  process.stderr.write(`Invalid configuration:\n  ${error.message}\n`)
  process.exit(78) // EX_CONFIG
}
// Each running job (email, webhook, reply) holds a connection for its delivery row lock, and takes another at times.
const sql = createSql(databaseUrl, { max: concurrency * 5 + 4, name: 'veilmail-delivery' })
const boss = createBoss(databaseUrl)
await boss.start()
await createQueues(boss)

const deps = createDeliveryDeps(sql, cfg, { dkim })
const stopWakeUps = await startDeliveryWorker(boss, deps, { concurrency, queueConcurrency, pollSeconds })
log.info('delivery.started', { concurrency })

const metrics = await serveMetrics(cfg, 'delivery')
const stopHeartbeat = startHeartbeat(sql, 'delivery')

onShutdown(async () => {
  metrics?.close()
  await stopHeartbeat()
  await stopWakeUps()
  await boss.stop({ graceful: true, timeout: 10_000 }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
  deps.transport.close()
  await sql.end({ timeout: 5 })
})
