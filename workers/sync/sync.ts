// The `sync` process: IMAP sync and flag write-back of connected mailboxes. Every
// IMAP connection is made here; the API only writes intents and queues jobs.
import { createSql } from '../../db/client.ts'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { startHeartbeat } from '../../db/heartbeat.ts'
import { errorFields, log, setLogProcess } from '../../lib/log.ts'
import { serveMetrics } from '../../db/metrics.ts'
import { onShutdown } from '../../lib/process-lifecycle.ts'
import { createBoss, createQueues } from '../../db/queues.ts'
import { startIdleWatcher } from './idle-watcher.ts'
import { startSyncWorker } from './sync-worker.ts'

setLogProcess('sync')
const cfg = config()
const databaseUrl = requireDatabaseUrl(cfg)
const { concurrency, intervalSeconds } = cfg.sync
// each running sync holds a connection for its account lock and takes another for its batches
const sql = createSql(databaseUrl, { max: concurrency * 3 + 4, name: 'veilmail-sync' })
const boss = createBoss(databaseUrl)
await boss.start()
await createQueues(boss)

// IMAP servers' certificates are checked against the system CAs plus NODE_EXTRA_CA_CERTS (read by Node itself)
const stop = await startSyncWorker(boss, { sql, boss, config: cfg }, { concurrency, intervalSeconds, pollSeconds: 5 })
// IMAP IDLE for the accounts of users with an open inbox (SYNC_IDLE_CONNECTIONS, 0: off)
const idle = cfg.syncIdle.connections > 0
  ? startIdleWatcher({ sql, boss, config: cfg }, { maxConnections: cfg.syncIdle.connections, activeSeconds: cfg.syncIdle.activeSeconds })
  : undefined
log.info('sync.started', { concurrency, intervalSeconds, idleConnections: cfg.syncIdle.connections })

const metrics = await serveMetrics(cfg, 'sync')
const stopHeartbeat = startHeartbeat(sql, 'sync')

onShutdown(async () => {
  metrics?.close()
  await stopHeartbeat()
  await idle?.stop()
  await stop()
  await boss.stop({ graceful: true, timeout: 10_000 }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
  await sql.end({ timeout: 5 })
})
