// The delivery worker of the sending benchmark, on a thread of its own as it is a process of
// its own in production, so the relay stand-in and the load generator do not count against it.
import { parentPort, workerData } from 'node:worker_threads'
import { createSql } from '../../db/client.ts'
import { loadConfig } from '../../lib/config.ts'
import { setLogLevel } from '../../lib/log.ts'
import { createDeliveryDeps } from '../../workers/delivery/delivery-deps.ts'
import { startDeliveryWorker } from '../../workers/delivery/delivery-worker.ts'
import { createBoss } from '../../db/queues.ts'

setLogLevel('warn')
const config = loadConfig(workerData.env as Record<string, string>)
const { concurrency, pollSeconds } = config.delivery
const sql = createSql(config.databaseUrl!, { max: concurrency * 5 + 4, name: 'bench-delivery' })
const boss = createBoss(config.databaseUrl!, { max: 10, maintenance: false })
await boss.start()
const deps = createDeliveryDeps(sql, config)
await startDeliveryWorker(boss, deps, { concurrency, pollSeconds })
parentPort!.postMessage({ started: true })
parentPort!.on('message', async () => {
  await boss.stop({ graceful: false })
  deps.transport.close()
  await sql.end({ timeout: 5 })
  parentPort!.postMessage({ closed: true })
})
