// The `submission` process: authenticated SMTP for sending from an alias.
import { requireDatabaseUrl } from '../../db/database-url.ts'
import { runProcess } from '../../db/process-runtime.ts'
import { config } from '../../lib/config.ts'
import { log, setLogProcess } from '../../lib/log.ts'
import { createSubmissionServers } from './submission-server.ts'

setLogProcess('submission')
const cfg = config()
await runProcess({
  name: 'submission',
  databaseUrl: requireDatabaseUrl(cfg),
  config: cfg,
  poolSize: 10,
  queue: { maintenance: false, max: 3, createQueues: false, stopTimeoutMs: 5000 },
  async start({ sql, boss }) {
    const servers = createSubmissionServers({ sql, boss, config: cfg })
    const ports = await servers.listen()
    log.info('submission.listening', { starttls: ports.starttls, tls: ports.tls })
    return { stop: () => servers.close() }
  },
})
