// zstd (RFC 8878): compression and decompression each on one context kept for the whole process.
// node:zlib's zstdCompressSync and zstdDecompressSync make a new context, and a new zlib stream
// object around it, on every call (allocating the context's tables: ZSTD_createDCtx was 1.25% of
// the delivery's CPU under perf, opening each spooled chunk; ZSTD_createCCtx 3% of the MX's, sealing
// each message). A kept context avoids both:
// - Decompression starts each frame from a reset, which keeps its tables: a sealed 6.6 KB body
//   opened in 21.3 µs instead of 24.9.
// - Compression is never reset: node's reset() drops the context's parameters (the level), but a
//   frame ended with ZSTD_e_end leaves the context ready for the next with them. Each frame is
//   given whole in its first call, so zstd takes its size as the pledged size and sizes its window
//   and tables to it, as zstdCompressSync with `pledgedSrcSize` does: the frames are the same bytes.
//   A 9 KB mail body compresses in 12 µs instead of 37, the MX benchmark's repetitive 10 KB in 1.4
//   instead of 23. npm run bench -- mx, alternated: the MX's CPU per message 0.81-0.91 against
//   0.91-0.98 ms in its first 2,000 messages, 0.58-0.80 against 0.69-0.87 after; bench -- sync:
//   0.46-0.48 against 0.54 ms per message (main thread 0.34 against 0.40). (A kept context that was
//   reset each time lost the level, and the sync took 0.52 ms of its main thread per message
//   instead of 0.45.)
//
// Node has no public API for a kept context, so this drives the native handle of a zlib stream
// the way node:zlib's own sync path does (processChunkSync in lib/zlib.js):
// writeSync(flush, input, inOffset, inLength, output, outOffset, outLength) leaving
// [output left, input left] in the stream's _writeState. That shape is checked when this module
// loads: frames made by the kept compressor must be byte for byte those of zstdCompressSync, and
// the kept decompressor must read them; if any check fails (another Node), every call goes through
// the public functions instead, and `contextKept` says so.
import { randomBytes } from 'node:crypto'
import { constants, ZstdCompress, ZstdDecompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib'

interface Handle {
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void
  reset(): void
  close(): void
  onerror: (message: string, errno: number) => void
}

const LEVEL = { [constants.ZSTD_c_compressionLevel]: 1 }
const OUT_CHUNK = 64 * 1024

/** The kept context: a frame per call (from a reset, with `reset`); a context that failed is replaced. */
class KeptContext {
  #make: () => { _handle: Handle; _writeState: Uint32Array }
  #reset: boolean
  #handle!: Handle
  #state!: Uint32Array
  #error: Error | undefined
  #out = Buffer.allocUnsafe(OUT_CHUNK)

  constructor(make: () => { _handle: Handle; _writeState: Uint32Array }, options: { reset: boolean }) {
    this.#make = make
    this.#reset = options.reset
    this.#open()
  }

  #open() {
    const stream = this.#make()
    this.#handle = stream._handle
    this.#state = stream._writeState
    // the stream is never written: its handle reports to us instead of destroying it
    this.#handle.onerror = (message) => { this.#error = new Error(`zstd: ${message}`) }
  }

  run(input: Uint8Array): Buffer {
    if (this.#reset) this.#handle.reset()
    const parts: Buffer[] = []
    let inOffset = 0
    let inLeft = input.length
    for (;;) {
      this.#handle.writeSync(constants.ZSTD_e_end, input, inOffset, inLeft, this.#out, 0, OUT_CHUNK)
      if (this.#error) {
        const error = this.#error
        this.#error = undefined
        this.#handle.close()
        this.#open()
        throw error
      }
      const [outLeft, stillIn] = this.#state
      parts.push(Buffer.from(this.#out.subarray(0, OUT_CHUNK - outLeft)))
      inOffset += inLeft - stillIn
      inLeft = stillIn
      // as node:zlib's sync loop: done once the input is taken and the output was not filled
      if (inLeft === 0 && outLeft !== 0) break
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts)
  }
}

type Internals = { _handle: Handle; _writeState: Uint32Array }

/** A frame as zstdCompressSync makes it: level 1, the input's size given, so zstd sizes its window and tables to it. */
const publicCompress = (data: Uint8Array) => zstdCompressSync(data, { pledgedSrcSize: data.length, params: LEVEL })

/** The kept pair, or undefined when this Node's zlib is not the shape it drives (checked on samples). */
function keptContexts(): { compressor: KeptContext; decompressor: KeptContext } | undefined {
  try {
    const compressor = new KeptContext(() => new ZstdCompress({ params: LEVEL }) as unknown as Internals, { reset: false })
    const decompressor = new KeptContext(() => new ZstdDecompress() as unknown as Internals, { reset: true })
    // frames of several sizes one after another, one larger than an output chunk and one that
    // does not compress: each the public function's bytes, and read back by both sides
    const samples = [Buffer.from('Subject: hello\r\n\r\nhello hello hello\r\n'), Buffer.alloc(3 * OUT_CHUNK + 17, 'mail body line\r\n'), randomBytes(OUT_CHUNK + 99), Buffer.alloc(0), Buffer.from('a')]
    for (const sample of samples) {
      const frame = compressor.run(sample)
      if (!frame.equals(publicCompress(sample))) return undefined
      if (!decompressor.run(frame).equals(sample) || !zstdDecompressSync(frame).equals(sample)) return undefined
    }
    return { compressor, decompressor }
  } catch {
    return undefined
  }
}

const kept = keptContexts()

/** Whether the contexts are kept (false: this Node's zlib is not the shape checked above). */
export const contextKept = kept !== undefined

/** One zstd frame of `data`, level 1, sized to it (the bytes zstdCompressSync makes with `pledgedSrcSize`). */
export const zstdCompress: (data: Uint8Array) => Buffer = kept ? (data) => kept.compressor.run(data) : publicCompress

/** The bytes of a zstd frame; throws on a frame that is not one. */
export const zstdDecompress: (data: Uint8Array) => Buffer = kept ? (data) => kept.decompressor.run(data) : (data) => zstdDecompressSync(data)
