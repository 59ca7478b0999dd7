// A spooled message read back for delivery (docs/mail-flow.md, "Streaming"): chunk by chunk, each opened and
// checked as it comes, so a delivery holds one chunk of a large message at a time, never the
// whole. Every read goes to the spool again: a step that needs the body twice (the DKIM body hash,
// then the send) reads it twice rather than keep it; only the first chunk (at most one chunk's
// size, read with the delivery's other rows in one round trip) is kept, as every step reads it
// for the header and a small message is nothing else. Rows spooled before chunking (one sealed
// blob in `raw`) read as one chunk.
import type { Db } from '../../db/client.ts'
import { getSpoolChunk, type SpoolMessage } from '../../db/spool.ts'
import { readHeaderBytes, splitMessage, type HeaderField } from '../../lib/raw-message.ts'
import { SpoolDamagedError, type SpoolCodec } from './spool-codec.ts'

export class SpooledMessage {
  readonly #db: Db
  readonly #codec: SpoolCodec
  readonly #row: SpoolMessage
  #head: Promise<{ headers: HeaderField[]; bodyStart: number }> | undefined
  /** chunk 0: sealed as the caller read it, then opened once it was checked */
  #first: { sealed?: Buffer; opened?: Buffer }

  /** `firstSealed`: chunk 0 when the caller read it already (undefined: read it here). */
  constructor(db: Db, codec: SpoolCodec, row: SpoolMessage, firstSealed?: Buffer) {
    this.#db = db
    this.#codec = codec
    this.#row = row
    this.#first = { sealed: firstSealed }
  }

  get size(): number {
    return this.#row.size
  }

  /** The message's bytes in order; throws SpoolDamagedError on a missing, altered, reordered or foreign chunk. */
  async *chunks(): AsyncGenerator<Buffer> {
    const { id, chunks, raw } = this.#row
    if (chunks === null) {
      yield this.#codec.openRaw(id, raw!)
      return
    }
    for (let seq = 0; seq < chunks; seq++) {
      if (seq === 0 && this.#first.opened) {
        yield this.#first.opened
        continue
      }
      const sealed = (seq === 0 && this.#first.sealed) || (await getSpoolChunk(this.#db, id, seq))
      if (!sealed) throw new SpoolDamagedError(`chunk ${seq} of ${chunks} is missing`)
      const opened = this.#codec.openChunk(id, seq, seq === chunks - 1, sealed)
      if (seq === 0) this.#first = { opened }
      yield opened
    }
  }

  /** The header fields, from as many chunks as the header spans. */
  async headers(): Promise<HeaderField[]> {
    return (await (this.#head ??= this.#readHead())).headers
  }

  /** The body's bytes in order, read from the spool again on each call. */
  async *body(): AsyncGenerator<Buffer> {
    const { bodyStart } = await (this.#head ??= this.#readHead())
    let offset = 0
    for await (const chunk of this.chunks()) {
      const skip = Math.max(0, bodyStart - offset)
      offset += chunk.length
      if (skip < chunk.length) yield skip ? chunk.subarray(skip) : chunk
    }
  }

  /** The whole message in memory, for the steps that need all of it at once. */
  async whole(): Promise<Buffer> {
    const parts: Buffer[] = []
    for await (const chunk of this.chunks()) parts.push(chunk)
    return Buffer.concat(parts)
  }

  async #readHead(): Promise<{ headers: HeaderField[]; bodyStart: number }> {
    const { head, bodyStart } = await readHeaderBytes(this.chunks())
    return { headers: splitMessage(head).headers, bodyStart }
  }
}
