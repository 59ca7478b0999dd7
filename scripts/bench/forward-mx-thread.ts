// The MX of the forwarding benchmark, on a thread of its own as it would be a process of its own
// in production, so the load generator's work does not count against it. DNS: offline stand-in.
import { parentPort, workerData } from 'node:worker_threads'
import { createSql } from '../../db/client.ts'
import { loadConfig } from '../../lib/config.ts'
import { setLogLevel } from '../../lib/log.ts'
import { createMxServer } from '../../workers/mx/mx-server.ts'
import { createBoss } from '../../db/queues.ts'
import { fakeResolver } from '../testing/mail-stand-ins.ts'

setLogLevel('warn')
const config = loadConfig(workerData.env as Record<string, string>)
const sql = createSql(config.databaseUrl!, { max: 20, name: 'bench-mx' })
const boss = createBoss(config.databaseUrl!, { max: 4, maintenance: false })
await boss.start()
const mx = createMxServer({ sql, boss, config, resolver: fakeResolver() })
parentPort!.postMessage({ port: await mx.listen(0, '127.0.0.1') })
parentPort!.on('message', async () => {
  await mx.close()
  await boss.stop({ graceful: false })
  await sql.end({ timeout: 5 })
  parentPort!.postMessage({ closed: true })
})
