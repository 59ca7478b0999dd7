// Parsing and sealing of fetched batches on a thread of their own (node:worker_threads), so the
// sync's main thread reads IMAP and writes Postgres while the previous batch is parsed, compressed
// and sealed on the other core. One thread per process, shared by its concurrent syncs, started
// on the first batch and stopped after IDLE_MS without work (its heap is not held by an idle
// process). Sources go over packed into one transferred ArrayBuffer, the sealed rows come back
// the same way (prepared-message.ts): nothing is copied twice, and a batch is bounded (BATCH_BYTES
// in sync-mailbox.ts), so the thread's heap stays small.
import { Worker } from 'node:worker_threads'
import { unpackBatch, type MessageMeta, type PackedMessage, type PreparedMessage, type RowOwner } from './prepared-message.ts'

/** A thread unused this long is stopped. */
const IDLE_MS = 30_000

export interface FetchedMessage { meta: MessageMeta; source: Buffer }

/** What the main thread posts: a batch's sources as spans of one buffer. */
export interface ParseRequest { id: number; owner: RowOwner; metas: MessageMeta[]; spans: [number, number][]; bytes: ArrayBuffer }
export type ParseReply = { id: number; messages: PackedMessage[]; bytes: ArrayBuffer } | { id: number; error: string }

/** A parse thread for one secret key (the process's). */
export class ParseThread {
  readonly #secretKey: string
  #worker: Worker | undefined
  #pending = new Map<number, { worker: Worker; resolve(batch: PreparedMessage[]): void; reject(error: Error): void }>()
  #nextId = 0
  #idle: NodeJS.Timeout | undefined

  constructor(secretKey: string) {
    this.#secretKey = secretKey
  }

  /** The batch's rows, in the order given. Rejects when the thread failed (it is started again for the next batch). */
  prepare(owner: RowOwner, batch: FetchedMessage[]): Promise<PreparedMessage[]> {
    const worker = this.#start()
    clearTimeout(this.#idle)
    const id = this.#nextId++
    let total = 0
    for (const m of batch) total += m.source.length
    const bytes = new ArrayBuffer(total)
    const view = new Uint8Array(bytes)
    const spans: [number, number][] = []
    let at = 0
    for (const m of batch) {
      view.set(m.source, at)
      spans.push([at, m.source.length])
      at += m.source.length
    }
    return new Promise<PreparedMessage[]>((resolve, reject) => {
      this.#pending.set(id, { worker, resolve, reject })
      const request: ParseRequest = { id, owner, metas: batch.map((m) => m.meta), spans, bytes }
      worker.postMessage(request, [bytes])
    })
  }

  /** Stops the thread now (a stopping process); a later batch starts another. */
  async close(): Promise<void> {
    clearTimeout(this.#idle)
    const worker = this.#worker
    this.#worker = undefined
    await worker?.terminate()
  }

  #start(): Worker {
    if (this.#worker) return this.#worker
    const worker = new Worker(new URL('./parse-thread-worker.ts', import.meta.url), { workerData: { secretKey: this.#secretKey }, resourceLimits: { maxYoungGenerationSizeMb: 6 } })
    worker.unref() // never what keeps a process alive
    worker.on('message', (reply: ParseReply) => {
      const waiting = this.#pending.get(reply.id)
      this.#pending.delete(reply.id)
      if ('error' in reply) waiting?.reject(new Error(`parse thread: ${reply.error}`))
      else waiting?.resolve(unpackBatch(reply.messages, reply.bytes))
      if (this.#pending.size === 0 && this.#worker === worker) {
        this.#idle = setTimeout(() => void this.close(), IDLE_MS)
        this.#idle.unref()
      }
    })
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined
      for (const [id, p] of this.#pending) {
        if (p.worker !== worker) continue
        this.#pending.delete(id)
        p.reject(error)
      }
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`parse thread exited (${code})`)))
    this.#worker = worker
    return worker
  }
}
