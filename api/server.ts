// The `web` process: the HTTP API and the built web app on PORT.
import path from 'node:path'
import { serve } from '@hono/node-server'
import { config } from '../lib/config.ts'
import { log, setLogProcess } from '../lib/log.ts'
import { createApp } from './app.ts'
import { requireDatabaseUrl } from '../db/database-url.ts'
import { registerQueueMetrics } from '../db/metrics.ts'
import { runProcess } from '../db/process-runtime.ts'

setLogProcess('web')
const cfg = config()
await runProcess({
  name: 'web',
  databaseUrl: requireDatabaseUrl(cfg),
  config: cfg,
  poolSize: 20,
  // the web process only enqueues; maintenance runs in the worker processes
  queue: { maintenance: false, createQueues: true, stopTimeoutMs: 5000 },
  async start({ sql, boss }) {
    const app = createApp({ sql, boss, config: cfg, webRoot: path.join(import.meta.dirname, '..', 'dist', 'web') })
    const server = serve({ fetch: app.fetch, port: cfg.port, hostname: process.env.HOST ?? '0.0.0.0' }, (info) => {
      log.info('web.listening', { port: info.port })
    })
    registerQueueMetrics(sql)
    return { stop: () => void server.close() }
  },
})
