// The page's side of the age worker (age-worker.ts): one worker, started on first use, and one
// promise per request. Nothing here imports age-encryption, so it stays out of the page chunks;
// the worker script is a same-origin file, which the CSP's script-src 'self' allows.
import type { AgeFailureKind } from '../../../shared/age-core.ts'
import type { AgeOp, AgeOps, AgeRequest, AgeResponse } from './age-protocol.ts'

/** An AgeFailure thrown in the worker: same kind, same user-facing message (age-core's texts). */
export class AgeError extends Error {
  readonly kind: AgeFailureKind
  constructor(kind: AgeFailureKind, message: string) {
    super(message)
    this.name = 'AgeFailure'
    this.kind = kind
  }
}

const WORKER_FAILED = 'The encryption worker could not be started. Reload the page and try again.'

interface Pending {
  resolve: (result: unknown) => void
  reject: (error: Error) => void
}

let worker: Worker | undefined
let nextId = 1
const pending = new Map<number, Pending>()

/** Rejects everything in flight and drops the worker, so the next request starts a new one. */
function fail(error: Error) {
  worker?.terminate()
  worker = undefined
  for (const request of pending.values()) request.reject(error)
  pending.clear()
}

function startWorker(): Worker {
  if (worker) return worker
  const started = new Worker(new URL('./age-worker.ts', import.meta.url), { type: 'module', name: 'veilmail-age' })
  started.addEventListener('message', (event: MessageEvent<AgeResponse>) => {
    const response = event.data
    const request = pending.get(response.id)
    if (!request) return
    pending.delete(response.id)
    if (response.ok) request.resolve(response.result)
    else request.reject(response.kind ? new AgeError(response.kind, response.message) : new Error(response.message))
  })
  // The script failed to load (network, CSP) or threw outside a request.
  started.addEventListener('error', (event) => {
    event.preventDefault()
    fail(new Error(WORKER_FAILED))
  })
  started.addEventListener('messageerror', () => fail(new Error(WORKER_FAILED)))
  worker = started
  return started
}

/** Runs one operation in the worker. Rejects with AgeError for age's failures, Error otherwise. */
export function runAge<K extends AgeOp>(op: K, args: AgeOps[K]['args']): Promise<AgeOps[K]['result']> {
  return new Promise((resolve, reject) => {
    const id = nextId++
    pending.set(id, { resolve: resolve as (result: unknown) => void, reject })
    try {
      const request: AgeRequest<K> = { id, op, args }
      startWorker().postMessage(request)
    } catch (error) {
      pending.delete(id)
      reject(error instanceof Error ? error : new Error(WORKER_FAILED))
    }
  })
}
