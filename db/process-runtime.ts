// What every long-running process (the Procfile's web, mx, delivery, submission, sync) does around
// its own work: a Postgres pool and a queue client, metrics and a heartbeat, and one shutdown order
// on SIGTERM — stop taking work, let the queue finish what is running, then release the rest.
import type { PgBoss } from 'pg-boss'
import type { Config } from '../lib/config.ts'
import { errorFields, log } from '../lib/log.ts'
import { onShutdown } from '../lib/process-lifecycle.ts'
import { createSql, type Sql } from './client.ts'
import { startHeartbeat } from './heartbeat.ts'
import { serveMetrics } from './metrics.ts'
import { createBoss, createQueues } from './queues.ts'

export interface ProcessRuntime {
  sql: Sql
  boss: PgBoss
}

/** What a process's own work hands back: how to stop taking work, and what to release after. */
export interface ProcessWork {
  /** Stops taking new work (servers stop listening, consumers stop fetching); runs before the queue stops. */
  stop?(): Promise<void> | void
  /** Releases what running jobs used (a relay pool); runs after the queue let them finish. */
  release?(): Promise<void> | void
}

export interface ProcessSpec {
  /** The Procfile name: the heartbeat's and the metrics port's. */
  name: string
  databaseUrl: string
  config: Pick<Config, 'metrics'>
  /** Postgres connections this process's own work may hold at once. */
  poolSize: number
  /** Queue maintenance (supervision, schedules) runs only where jobs are worked. */
  queue: { maintenance: boolean; max?: number; createQueues: boolean; stopTimeoutMs: number }
  /** A process under a cluster primary serves no metrics port of its own (the primary sums them). */
  metrics?: boolean
  start(runtime: ProcessRuntime): Promise<ProcessWork>
}

export async function runProcess(spec: ProcessSpec): Promise<ProcessRuntime> {
  const sql = createSql(spec.databaseUrl, { max: spec.poolSize, name: `veilmail-${spec.name}` })
  const boss = createBoss(spec.databaseUrl, { maintenance: spec.queue.maintenance, ...(spec.queue.max ? { max: spec.queue.max } : {}) })
  await boss.start()
  if (spec.queue.createQueues) await createQueues(boss)

  const work = await spec.start({ sql, boss })
  const metrics = spec.metrics === false ? undefined : await serveMetrics(spec.config, spec.name)
  const stopHeartbeat = startHeartbeat(sql, spec.name)

  onShutdown(async () => {
    metrics?.close()
    await stopHeartbeat()
    await work.stop?.()
    await boss.stop({ graceful: true, timeout: spec.queue.stopTimeoutMs }).catch((e) => log.warn('queue.stop_failed', errorFields(e)))
    await work.release?.()
    await sql.end({ timeout: 5 })
  })
  return { sql, boss }
}
