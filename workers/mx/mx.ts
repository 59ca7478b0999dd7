// The `mx` process: inbound SMTP for the alias domains on MX_HOST:MX_PORT. With MX_PROCESSES > 1
// it is the primary of that many MX processes sharing the port (workers/mx/mx-cluster.ts).
import cluster from 'node:cluster'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { errorFields, log, setLogProcess } from '../../lib/log.ts'
import { onShutdown } from '../../lib/process-lifecycle.ts'
import { loadTlsCredentials, TlsConfigError, type TlsCredentials } from '../../lib/tls.ts'
import { superviseMxProcesses } from './mx-cluster.ts'

setLogProcess('mx')
const cfg = config()
let tls: TlsCredentials
try {
  // made here once (a self-signed certificate in development), before any MX process is forked
  tls = loadTlsCredentials(cfg)
} catch (error) {
  if (!(error instanceof TlsConfigError)) throw error
  process.stderr.write(`Invalid configuration:\n  ${error.message}\n`)
  process.exit(78) // EX_CONFIG
}
const databaseUrl = requireDatabaseUrl(cfg)

if (cluster.isPrimary && cfg.mxProcesses > 1) await superviseMxProcesses(cfg)
else await serve(cluster.isWorker)

async function serve(underPrimary: boolean) {
  // Loaded here, not above: a primary (MX_PROCESSES > 1) never serves, and loading the SMTP,
  // queue and mail-authentication stack cost it seconds of CPU and a hundred MB for nothing.
  const [{ createSql }, { startHeartbeat }, { serveMetrics }, { createBoss, createQueues }, { clusterAdmission }, { createMxServer }, { reportReady }] = await Promise.all([
    import('../../db/client.ts'), import('../../db/heartbeat.ts'), import('../../db/metrics.ts'), import('../../db/queues.ts'), import('./mx-admission.ts'), import('./mx-server.ts'),
    import('../process-cluster.ts'),
  ])
  const sql = createSql(databaseUrl, { max: 20, name: 'veilmail-mx' })
  // The MX only enqueues; maintenance runs in the worker processes.
  const boss = createBoss(databaseUrl, { maintenance: false })
  await boss.start()
  await createQueues(boss)

  const mx = createMxServer({ sql, boss, config: cfg, tls, ...(underPrimary ? { admission: clusterAdmission() } : {}) })
  const port = await mx.listen()
  // under a primary, it says mx.listening once every MX process listens
  log.info(underPrimary ? 'mx.process_listening' : 'mx.listening', { port })

  if (underPrimary) reportReady({ port })
  const metrics = underPrimary ? undefined : await serveMetrics(cfg, 'mx')
  const stopHeartbeat = startHeartbeat(sql, 'mx')

  onShutdown(async () => {
    metrics?.close()
    await stopHeartbeat()
    await mx.close()
    await boss.stop({ graceful: true, timeout: 5000 }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
    await sql.end({ timeout: 5 })
  })
}
