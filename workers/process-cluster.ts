// A worker process that runs as several (MX_PROCESSES, DELIVERY_PROCESSES): one Node process works
// on one core, and Postfix runs many smtpd and smtp processes. The process started as `mx` or
// `delivery` becomes a primary (node:cluster) that forks that many, serves their metrics summed on
// its metrics port, restarts one that dies (with backoff, as scripts/start.ts does) and stops them
// all on SIGTERM/SIGINT. To `npm start` and the Procfile it stays one process; it logs its ready
// event once every process it forked said it is ready (reportReady).
import cluster, { type Worker } from 'node:cluster'
import type { Config } from '../lib/config.ts'
import { log } from '../lib/log.ts'
import { onShutdown } from '../lib/process-lifecycle.ts'
import { serveMetrics, shareMetricsWithPrimary } from '../db/metrics.ts'

const READY = 'veilmail.process-ready'

interface ReadyMessage { type: typeof READY; fields: Record<string, unknown> }

export interface ProcessClusterOptions {
  /** the process's name: its metrics port and the prefix of its log events */
  name: string
  processes: number
  /** logged as `${name}.${readyEvent}` once all are ready (what `npm start` and the benchmarks wait for) */
  readyEvent: string
  /** a forked process's own messages (the MX's connection admission) */
  onMessage?: (worker: Worker, message: unknown) => void
  /** a forked process exited (its share of shared state is released here) */
  onExit?: (worker: Worker) => void
}

/** In a forked process: ready (listening, consuming); `fields` go into the primary's ready event. */
export function reportReady(fields: Record<string, unknown> = {}): void {
  shareMetricsWithPrimary()
  process.send?.({ type: READY, fields } satisfies ReadyMessage)
}

export async function superviseProcesses(cfg: Config, options: ProcessClusterOptions): Promise<void> {
  const { name, processes } = options
  let stopping = false
  let ready = 0
  const workers = new Set<Worker>()

  const fork = (attempt: number) => {
    if (stopping) return
    const started = Date.now()
    const worker = cluster.fork()
    workers.add(worker)
    worker.on('message', (m: ReadyMessage | undefined) => {
      if (m?.type !== READY) return options.onMessage?.(worker, m)
      if (++ready === processes) log.info(`${name}.${options.readyEvent}`, { ...m.fields, processes })
    })
    worker.once('exit', (code, signal) => {
      workers.delete(worker)
      options.onExit?.(worker)
      if (stopping) return
      // One that ran a while before dying starts again from the shortest delay.
      const next = Date.now() - started > 60_000 ? 0 : attempt + 1
      const delay = Math.min(30_000, 1000 * 2 ** Math.max(0, next - 1))
      log.warn(`${name}.process_exited`, { pid: worker.process.pid, code, signal, restartInMs: delay })
      setTimeout(() => fork(next), delay)
    })
  }
  for (let i = 0; i < processes; i++) fork(0)

  const metrics = await serveMetrics(cfg, name, { cluster: true })
  onShutdown(async () => {
    stopping = true
    metrics?.close()
    await Promise.all([...workers].map((worker) => new Promise<void>((resolve) => {
      if (worker.isDead()) return resolve()
      worker.once('exit', () => resolve())
      worker.process.kill('SIGTERM') // each stops gracefully (its own onShutdown)
    })))
  })
}
