// zstd (RFC 8878): compression with a new context per call, sized to the input, and
// decompression on one context kept for the whole process.
// node:zlib's zstdDecompressSync makes a new decompression context on every call (allocating its
// tables: ZSTD_createDCtx was 1.25% of the delivery's CPU under perf, opening each spooled chunk).
// A kept context starts each frame from a reset, which keeps its tables: a sealed 6.6 KB body
// opened in 21.3 µs instead of 24.9. Compression keeps no context: one kept without the input's
// size uses the tables and window of an unknown size, and the sync, sealing two bodies per
// message, took 0.52 ms of its main thread per message instead of 0.45 (npm run bench -- sync).
//
// Node has no public API for a kept context, so this drives the native handle of a ZstdDecompress
// stream the way node:zlib's own sync path does (processChunkSync in lib/zlib.js):
// writeSync(flush, input, inOffset, inLength, output, outOffset, outLength) leaving
// [output left, input left] in the stream's _writeState. That shape is checked when this module
// loads, by round trips of frames zstdCompressSync made; if any fails (another Node), every call
// goes through zstdDecompressSync instead, and `contextKept` says so.
import { constants, ZstdDecompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib'

interface Handle {
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void
  reset(): void
  close(): void
  onerror: (message: string, errno: number) => void
}

const LEVEL = { [constants.ZSTD_c_compressionLevel]: 1 }
const OUT_CHUNK = 64 * 1024

/** The kept context: a frame per call, from a reset; a context that failed is replaced. */
class KeptContext {
  #make: () => { _handle: Handle; _writeState: Uint32Array }
  #handle!: Handle
  #state!: Uint32Array
  #error: Error | undefined
  #out = Buffer.allocUnsafe(OUT_CHUNK)

  constructor(make: () => { _handle: Handle; _writeState: Uint32Array }) {
    this.#make = make
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
    this.#handle.reset()
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

function keptDecompressor(): KeptContext | undefined {
  try {
    const decompressor = new KeptContext(() => new ZstdDecompress() as unknown as Internals)
    // round trips with the public functions, a frame larger than one output chunk among them
    const samples = [Buffer.from('Subject: hello\r\n\r\nhello hello hello\r\n'), Buffer.alloc(3 * OUT_CHUNK + 17, 'mail body line\r\n')]
    for (const sample of samples) {
      if (!decompressor.run(zstdCompress(sample)).equals(sample)) return undefined
    }
    return decompressor
  } catch {
    return undefined
  }
}

/** One zstd frame of `data`, level 1, the input's size given: zstd sizes its window and tables to it. */
export function zstdCompress(data: Uint8Array): Buffer {
  return zstdCompressSync(data, { pledgedSrcSize: data.length, params: LEVEL })
}

const kept = keptDecompressor()

/** Whether the decompression context is kept (false: this Node's zlib is not the shape checked above). */
export const contextKept = kept !== undefined

/** The bytes of a zstd frame; throws on a frame that is not one. */
export const zstdDecompress: (data: Uint8Array) => Buffer = kept ? (data) => kept.run(data) : (data) => zstdDecompressSync(data)
