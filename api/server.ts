// The `web` process: the HTTP API and the built web app on PORT.
import path from 'node:path'
import { serve } from '@hono/node-server'
import { createSql } from '../db/client.ts'
import { config } from '../lib/config.ts'
import { errorFields, log, setLogProcess } from '../lib/log.ts'
import { createBoss, createQueues } from '../db/queues.ts'
import { onShutdown } from '../lib/process-lifecycle.ts'
import { createApp } from './app.ts'
import { requireDatabaseUrl } from '../db/database-url.ts'
import { startHeartbeat } from '../db/heartbeat.ts'
import { registerQueueMetrics, serveMetrics } from '../db/metrics.ts'

setLogProcess('web')
const cfg = config()
const databaseUrl = requireDatabaseUrl(cfg)
const sql = createSql(databaseUrl, { max: 20, name: 'veilmail-web' })
// The web process only enqueues; maintenance runs in the worker processes.
const boss = createBoss(databaseUrl, { maintenance: false })
await boss.start()
await createQueues(boss)

const app = createApp({ sql, boss, config: cfg, webRoot: path.join(import.meta.dirname, '..', 'dist', 'web') })
const server = serve({ fetch: app.fetch, port: cfg.port, hostname: process.env.HOST ?? '0.0.0.0' }, (info) => {
  log.info('web.listening', { port: info.port })
})

registerQueueMetrics(sql)
const metrics = await serveMetrics(cfg, 'web')
const stopHeartbeat = startHeartbeat(sql, 'web')

onShutdown(async () => {
  server.close()
  metrics?.close()
  await stopHeartbeat()
  await boss.stop({ graceful: true, timeout: 5000 }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
  await sql.end({ timeout: 5 })
})
