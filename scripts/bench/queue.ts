// Queue wake-up: how long a job waits between enqueue (commit) and its handler starting, with
// idle workers. Without NOTIFY this is bounded by the polling interval (seconds); with it, it
// should be a few milliseconds.
import * as v from 'valibot'
import { createSql } from '../../db/client.ts'
import { createBoss, createQueues, defineQueue, enqueue, work } from '../../db/queues.ts'
import { benchDatabase } from './bench-db.ts'
import { ms, percentile, printTable } from './bench-table.ts'

const probe = defineQueue({
  name: 'bench-wakeup',
  schema: v.object({ sentAt: v.number() }),
  retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60,
})

export async function run(): Promise<void> {
  const db = await benchDatabase()
  const sql = createSql(db.url, { max: 4 })
  const producer = createBoss(db.url, { max: 2, maintenance: false })
  const consumer = createBoss(db.url, { max: 2, maintenance: false })
  try {
    await producer.start()
    await consumer.start()
    await createQueues(producer, [probe])
    const latencies: number[] = []
    let onStart: () => void = () => {}
    await work(consumer, probe, async ({ sentAt }) => {
      latencies.push(performance.timeOrigin + performance.now() - sentAt)
      onStart()
    })
    await new Promise((r) => setTimeout(r, 1000)) // let the worker go idle
    const rounds = 200
    for (let i = 0; i < rounds; i++) {
      const started = new Promise<void>((resolve) => (onStart = resolve))
      await sql.begin((tx) => enqueue(tx, producer, probe, { sentAt: performance.timeOrigin + performance.now() }))
      await started
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20)) // idle again between jobs
    }
    latencies.sort((a, b) => a - b)
    printTable('Queue wake-up (npm run bench -- queue)', [
      [`enqueue → handler start p50 (idle worker, ${rounds} jobs)`, ms(percentile(latencies, 50)), 'no polling wait'],
      ['enqueue → handler start p99', ms(percentile(latencies, 99)), 'no polling wait'],
      ['enqueue → handler start max', ms(latencies[latencies.length - 1]), ''],
    ])
  } finally {
    await consumer.stop({ graceful: false })
    await producer.stop({ graceful: false })
    await sql.end()
    await db.close()
  }
}
