// The `delivery` process: queue consumers for inbound forwarding (e-mail, webhooks, replies). With
// DELIVERY_PROCESSES > 1 it is the primary of that many delivery processes (one Node process works
// on one core; workers/process-cluster.ts), each consuming every queue: pg-boss hands a job to one
// fetch only, and a forward locks its delivery row for the whole attempt (delivery-step.ts).
import cluster from 'node:cluster'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { log, setLogProcess } from '../../lib/log.ts'
import { DkimConfigError, loadDkimKeys } from '../../lib/dkim-keys.ts'
import { DkimSigner } from '../../lib/dkim-signer.ts'
import { concurrencyPerQueue, QueueConcurrencyError } from './delivery-worker.ts'
import { reportReady, superviseProcesses } from '../process-cluster.ts'

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
const { concurrency, pollSeconds, queueConcurrency, processes } = cfg.delivery
try {
  concurrencyPerQueue(concurrency, queueConcurrency)
} catch (error) {
  if (!(error instanceof QueueConcurrencyError)) throw error
  process.stderr.write(`Invalid configuration:\n  ${error.message}\n`)
  process.exit(78) // EX_CONFIG
}

if (cluster.isPrimary && processes > 1) await superviseProcesses(cfg, { name: 'delivery', processes, readyEvent: 'started' })
else await serve(cluster.isWorker)

async function serve(underPrimary: boolean) {
  const [{ runProcess }, { createDeliveryDeps }, { startDeliveryWorker }] = await Promise.all([
    import('../../db/process-runtime.ts'), import('./delivery-deps.ts'), import('./delivery-worker.ts'),
  ])
  await runProcess({
    name: 'delivery',
    databaseUrl,
    config: cfg,
    // Each running job (email, webhook, reply) holds a connection for its delivery row lock, and takes another at times.
    poolSize: concurrency * 5 + 4,
    queue: { maintenance: true, createQueues: true, stopTimeoutMs: 10_000 },
    metrics: !underPrimary,
    async start({ sql, boss }) {
      const deps = createDeliveryDeps(sql, cfg, { dkim })
      const stopWakeUps = await startDeliveryWorker(boss, deps, { concurrency, queueConcurrency, pollSeconds })
      // under a primary, it says delivery.started once every delivery process consumes
      log.info(underPrimary ? 'delivery.process_started' : 'delivery.started', { concurrency })
      if (underPrimary) reportReady({ concurrency })
      // the relay pool closes only after the queue let running jobs finish with it
      return { stop: stopWakeUps, release: () => deps.transport.close() }
    },
  })
}
