// The `sync` process: IMAP sync and flag write-back of connected mailboxes. Every
// IMAP connection is made here; the API only writes intents and queues jobs.
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { runProcess } from '../../db/process-runtime.ts'
import { config } from '../../lib/config.ts'
import { log, setLogProcess } from '../../lib/log.ts'
import { startIdleWatcher } from './idle-watcher.ts'
import { startSyncWorker } from './sync-worker.ts'

setLogProcess('sync')
const cfg = config()
const { concurrency, intervalSeconds } = cfg.sync
await runProcess({
  name: 'sync',
  databaseUrl: requireDatabaseUrl(cfg),
  config: cfg,
  // each running sync holds a connection for its account lock and takes another for its batches
  poolSize: concurrency * 3 + 4,
  queue: { maintenance: true, createQueues: true, stopTimeoutMs: 10_000 },
  async start({ sql, boss }) {
    // IMAP servers' certificates are checked against the system CAs plus NODE_EXTRA_CA_CERTS (read by Node itself)
    const stopSync = await startSyncWorker(boss, { sql, boss, config: cfg }, { concurrency, intervalSeconds, pollSeconds: 5 })
    // IMAP IDLE for the accounts of users with an open inbox (SYNC_IDLE_CONNECTIONS, 0: off)
    const idle = cfg.syncIdle.connections > 0
      ? startIdleWatcher({ sql, boss, config: cfg }, { maxConnections: cfg.syncIdle.connections, activeSeconds: cfg.syncIdle.activeSeconds })
      : undefined
    log.info('sync.started', { concurrency, intervalSeconds, idleConnections: cfg.syncIdle.connections })
    return {
      async stop() {
        await idle?.stop()
        await stopSync()
      },
    }
  },
})
