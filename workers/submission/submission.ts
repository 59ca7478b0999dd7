// The `submission` process: authenticated SMTP for sending from an alias.
import { createSql } from '../../db/client.ts'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { errorFields, log, setLogProcess } from '../../lib/log.ts'
import { onShutdown } from '../../lib/process-lifecycle.ts'
import { startHeartbeat } from '../../db/heartbeat.ts'
import { serveMetrics } from '../../db/metrics.ts'
import { createBoss } from '../../db/queues.ts'
import { createSubmissionServers } from './submission-server.ts'

setLogProcess('submission')
const cfg = config()
const databaseUrl = requireDatabaseUrl(cfg)
const sql = createSql(databaseUrl, { max: 10, name: 'veilmail-submission' })
const boss = createBoss(databaseUrl, { max: 3, maintenance: false })
await boss.start()

const servers = createSubmissionServers({ sql, boss, config: cfg })
const ports = await servers.listen()
log.info('submission.listening', { starttls: ports.starttls, tls: ports.tls })

const metrics = await serveMetrics(cfg, 'submission')
const stopHeartbeat = startHeartbeat(sql, 'submission')

onShutdown(async () => {
  metrics?.close()
  await stopHeartbeat()
  await servers.close()
  await boss.stop({ graceful: true, timeout: 5000 }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
  await sql.end({ timeout: 5 })
})
