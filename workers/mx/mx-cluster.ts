// MX_PROCESSES > 1: the `mx` process becomes a primary that forks that many MX processes
// (node:cluster) sharing MX_PORT. One Node process works on one core, and Postfix runs many smtpd
// processes; the primary accepts each connection and hands it to the next MX process in turn
// (cluster's round-robin), keeps the connection caps' count for all of them (mx-admission.ts),
// serves their metrics summed on the mx metrics port, restarts one that dies (with backoff, as
// scripts/start.ts does) and stops them all on SIGTERM/SIGINT. To `npm start` and the Procfile
// it stays one `mx` process.
import cluster, { type Worker } from 'node:cluster'
import type { Config } from '../../lib/config.ts'
import { log } from '../../lib/log.ts'
import { onShutdown } from '../../lib/process-lifecycle.ts'
import { serveMetrics } from '../../db/metrics.ts'
import { ADMIT, ADMITTED, ConnectionLedger, LEAVE, type AdmissionMessage } from './mx-admission.ts'

/**
 * A refusal waits this long for leave messages still on their way: a client that got its 221 and
 * reconnected at once may reach the primary through another MX process before the one it left
 * reported it (the two IPC channels are read in no fixed order).
 */
const RECHECK_MS = 50

export async function superviseMxProcesses(cfg: Config): Promise<void> {
  const ledger = new ConnectionLedger({ total: cfg.mxMaxClients, perIp: cfg.mxMaxConnectionsPerIp })
  let stopping = false
  let listening = 0
  const workers = new Set<Worker>()

  const onMessage = (worker: Worker, m: AdmissionMessage) => {
    if (m?.type === LEAVE) return ledger.leave(`${worker.id}:${m.id}`)
    if (m?.type !== ADMIT) return
    const key = `${worker.id}:${m.id}`
    const reply = (refusal: ReturnType<ConnectionLedger['admit']>) => {
      if (worker.isConnected()) worker.send({ type: ADMITTED, id: m.id, refusal } satisfies AdmissionMessage)
      else ledger.leave(key)
    }
    if (!ledger.admit(key, m.ip, worker.id)) return reply(undefined)
    setTimeout(() => reply(ledger.admit(key, m.ip, worker.id)), RECHECK_MS)
  }

  const fork = (attempt: number) => {
    if (stopping) return
    const started = Date.now()
    const worker = cluster.fork()
    workers.add(worker)
    worker.on('message', (m: AdmissionMessage) => onMessage(worker, m))
    worker.once('listening', (address) => {
      if (++listening === cfg.mxProcesses) log.info('mx.listening', { port: address.port, processes: cfg.mxProcesses })
    })
    worker.once('exit', (code, signal) => {
      workers.delete(worker)
      ledger.leaveAll(worker.id)
      if (stopping) return
      // One that ran a while before dying starts again from the shortest delay.
      const next = Date.now() - started > 60_000 ? 0 : attempt + 1
      const delay = Math.min(30_000, 1000 * 2 ** Math.max(0, next - 1))
      log.warn('mx.process_exited', { pid: worker.process.pid, code, signal, restartInMs: delay })
      setTimeout(() => fork(next), delay)
    })
  }
  for (let i = 0; i < cfg.mxProcesses; i++) fork(0)

  const metrics = await serveMetrics(cfg, 'mx', { cluster: true })
  onShutdown(async () => {
    stopping = true
    metrics?.close()
    await Promise.all([...workers].map((worker) => new Promise<void>((resolve) => {
      if (worker.isDead()) return resolve()
      worker.once('exit', () => resolve())
      worker.process.kill('SIGTERM') // each closes its server and its queue gracefully (mx.ts)
    })))
  })
}
