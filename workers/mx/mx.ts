// The `mx` process: inbound SMTP for the alias domains on MX_HOST:MX_PORT.
import { createSql } from '../../db/client.ts'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { errorFields, log, setLogProcess } from '../../lib/log.ts'
import { onShutdown } from '../../lib/process-lifecycle.ts'
import { startHeartbeat } from '../../db/heartbeat.ts'
import { serveMetrics } from '../../db/metrics.ts'
import { loadTlsCredentials, TlsConfigError, type TlsCredentials } from '../../lib/tls.ts'
import { createMxServer } from './mx-server.ts'
import { createBoss, createQueues } from '../../db/queues.ts'

setLogProcess('mx')
const cfg = config()
let tls: TlsCredentials
try {
  tls = loadTlsCredentials(cfg)
} catch (error) {
  if (!(error instanceof TlsConfigError)) throw error
  process.stderr.write(`Invalid configuration:\n  ${error.message}\n`)
  process.exit(78) // EX_CONFIG
}
const databaseUrl = requireDatabaseUrl(cfg)
const sql = createSql(databaseUrl, { max: 20, name: 'veilmail-mx' })
// The MX only enqueues; maintenance runs in the worker processes.
const boss = createBoss(databaseUrl, { maintenance: false })
await boss.start()
await createQueues(boss)

const mx = createMxServer({ sql, boss, config: cfg, tls })
const port = await mx.listen()
log.info('mx.listening', { port })

const metrics = await serveMetrics(cfg, 'mx')
const stopHeartbeat = startHeartbeat(sql, 'mx')

onShutdown(async () => {
  metrics?.close()
  await stopHeartbeat()
  await mx.close()
  await boss.stop({ graceful: true, timeout: 5000 }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
  await sql.end({ timeout: 5 })
})
