// The `mx` process: inbound SMTP for the alias domains on MX_HOST:MX_PORT. With MX_PROCESSES > 1
// it is the primary of that many MX processes sharing the port (workers/mx/mx-cluster.ts).
import cluster from 'node:cluster'
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { config } from '../../lib/config.ts'
import { log, setLogProcess } from '../../lib/log.ts'
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
  const [{ runProcess }, { clusterAdmission }, { createMxServer }, { reportReady }] = await Promise.all([
    import('../../db/process-runtime.ts'), import('./mx-admission.ts'), import('./mx-server.ts'), import('../process-cluster.ts'),
  ])
  await runProcess({
    name: 'mx',
    databaseUrl,
    config: cfg,
    poolSize: 20,
    // the MX only enqueues; maintenance runs in the worker processes
    queue: { maintenance: false, createQueues: true, stopTimeoutMs: 5000 },
    metrics: !underPrimary,
    async start({ sql, boss }) {
      const mx = createMxServer({ sql, boss, config: cfg, tls, ...(underPrimary ? { admission: clusterAdmission() } : {}) })
      const port = await mx.listen()
      if (cfg.rspamdUrl) log.info('mx.spam_filter', { rspamd: cfg.rspamdUrl, timeoutMs: cfg.rspamdTimeoutMs })
      else if (!underPrimary || cluster.worker?.id === 1) log.warn('mx.no_spam_filter', { message: 'RSPAMD_URL is unset: mail is accepted without spam scoring' })
      // under a primary, it says mx.listening once every MX process listens
      log.info(underPrimary ? 'mx.process_listening' : 'mx.listening', { port })
      if (underPrimary) reportReady({ port })
      return { stop: () => mx.close() }
    },
  })
}
