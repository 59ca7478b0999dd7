// The `sync` process: IMAP sync and flag write-back of connected mailboxes. Every
// IMAP connection is made here; the API only writes intents and queues jobs. With
// SYNC_PROCESSES > 1 it is the primary of that many sync processes (one Node process works on one
// core; workers/process-cluster.ts), each consuming the sync queues and ticking the schedule: the
// queues' singleton keys, the per-account lock and the IDLE claims keep them from doing one
// account's work twice.
import cluster from 'node:cluster'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { log, setLogProcess } from '../../lib/log.ts'
import { reportReady, superviseProcesses } from '../process-cluster.ts'

setLogProcess('sync')
const cfg = config()
const { concurrency, intervalSeconds, processes } = cfg.sync

if (cluster.isPrimary && processes > 1) {
  requireDatabaseUrl(cfg) // refused here once, not in each process forked
  await superviseProcesses(cfg, { name: 'sync', processes, readyEvent: 'started' })
} else await serve(cluster.isWorker)

async function serve(underPrimary: boolean) {
  // Loaded here, not above: a primary never syncs, and loading imapflow and the parser costs it memory.
  const [{ runProcess }, { startIdleWatcher }, { startSyncWorker }] = await Promise.all([
    import('../../db/process-runtime.ts'), import('./idle-watcher.ts'), import('./sync-worker.ts'),
  ])
  await runProcess({
    name: 'sync',
    databaseUrl: requireDatabaseUrl(cfg),
    config: cfg,
    // each running sync holds a connection for its account lock and takes another for its batches
    poolSize: concurrency * 3 + 4,
    queue: { maintenance: true, createQueues: true, stopTimeoutMs: 10_000 },
    metrics: !underPrimary,
    async start({ sql, boss }) {
      // IMAP servers' certificates are checked against the system CAs plus NODE_EXTRA_CA_CERTS (read by Node itself)
      const stopSync = await startSyncWorker(boss, { sql, boss, config: cfg }, { concurrency, intervalSeconds, pollSeconds: 5 })
      // IMAP IDLE for the accounts of users with an open inbox (SYNC_IDLE_CONNECTIONS per process, 0: off)
      const idle = cfg.syncIdle.connections > 0
        ? startIdleWatcher({ sql, boss, config: cfg }, { maxConnections: cfg.syncIdle.connections, activeSeconds: cfg.syncIdle.activeSeconds })
        : undefined
      // under a primary, it says sync.started once every sync process consumes
      log.info(underPrimary ? 'sync.process_started' : 'sync.started', { concurrency, intervalSeconds, idleConnections: cfg.syncIdle.connections })
      if (underPrimary) reportReady({ concurrency, intervalSeconds })
      return {
        async stop() {
          await idle?.stop()
          await stopSync()
        },
      }
    },
  })
}
