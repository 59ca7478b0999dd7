// MX_PROCESSES > 1: the `mx` process becomes the primary of that many MX processes sharing MX_PORT
// (workers/process-cluster.ts). The primary accepts each connection and hands it to the next MX
// process in turn (cluster's round-robin) and keeps the connection caps' count for all of them
// (mx-admission.ts).
import type { Worker } from 'node:cluster'
import type { Config } from '../../lib/config.ts'
import { superviseProcesses } from '../process-cluster.ts'
import { ADMIT, ADMITTED, ConnectionLedger, LEAVE, type AdmissionMessage } from './mx-admission.ts'

/**
 * A refusal waits this long for leave messages still on their way: a client that got its 221 and
 * reconnected at once may reach the primary through another MX process before the one it left
 * reported it (the two IPC channels are read in no fixed order).
 */
const RECHECK_MS = 50

export async function superviseMxProcesses(cfg: Config): Promise<void> {
  const ledger = new ConnectionLedger({ total: cfg.mxMaxClients, perIp: cfg.mxMaxConnectionsPerIp })

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

  await superviseProcesses(cfg, {
    name: 'mx', processes: cfg.mxProcesses, readyEvent: 'listening',
    onMessage: (worker, m) => onMessage(worker, m as AdmissionMessage),
    onExit: (worker) => ledger.leaveAll(worker.id),
  })
}
