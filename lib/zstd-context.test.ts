import { randomBytes } from 'node:crypto'
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { contextKept, zstdCompress, zstdDecompress } from './zstd-context.ts'

/** Text that compresses about as mail does, `bytes` long. */
function text(bytes: number, seed: number) {
  const words = ['mail', 'message', 'hello', 'the', 'of', 'veilmail', 'forward', 'alias', 'reply', 'inbox', 'Grüße', 'naïve']
  let out = ''
  for (let i = 0; out.length < bytes; i++) out += words[(i * 7 + seed * 13 + (i >> 3)) % words.length] + (i % 11 ? ' ' : '\r\n')
  return Buffer.from(out.slice(0, bytes))
}

describe('zstd, compressing and decompressing on kept contexts', () => {
  it('keeps its contexts on the Node this project runs (the shape of node:zlib it drives is there)', () => {
    expect(contextKept).toBe(true)
  })

  it('compresses each frame to the bytes zstdCompressSync makes with the input size given, whatever frames came before', () => {
    // large before small and small before large: the kept context sizes its window and tables to
    // each input, at level 1 every time (a reset would drop the level)
    for (const [i, size] of [200_000, 1, 65_536, 5_000, 1_500_000, 100, 9_300, 0].entries()) {
      for (const data of [text(size, i), randomBytes(size)]) {
        const expected = zstdCompressSync(data, { pledgedSrcSize: data.length, params: { [constants.ZSTD_c_compressionLevel]: 1 } })
        expect(zstdCompress(data).equals(expected), `size ${size}`).toBe(true)
      }
    }
  })

  it('makes frames the public zstd reads, and reads the frames it makes, at every size', () => {
    for (const [i, size] of [1, 100, 5_000, 65_535, 65_536, 65_537, 200_000, 1_500_000].entries()) {
      for (const data of [text(size, i), randomBytes(size)]) {
        const frame = zstdCompress(data)
        expect(zstdDecompressSync(frame).equals(data), `size ${size}`).toBe(true)
        expect(zstdDecompress(frame).equals(data), `size ${size}`).toBe(true)
      }
    }
  })

  it('reads the frames sealed before it (made with a new context and the input size given)', () => {
    const data = text(40_000, 3)
    const old = zstdCompressSync(data, { pledgedSrcSize: data.length, params: { [constants.ZSTD_c_compressionLevel]: 1 } })
    expect(zstdDecompress(old).equals(data)).toBe(true)
  })

  it('reads each frame on its own: nothing of one call leaks into the next', () => {
    const a = text(30_000, 1)
    const b = text(30_000, 2)
    const [fa, fb, fa2] = [zstdCompress(a), zstdCompress(b), zstdCompress(a)]
    expect(fa2.equals(fa)).toBe(true) // the same input, the same frame
    expect(zstdDecompress(fb).equals(b)).toBe(true)
    expect(zstdDecompress(fa).equals(a)).toBe(true)
  })

  it('throws on what is not a whole frame, and works on after it', () => {
    const data = text(100_000, 4)
    const frame = zstdCompress(data)
    for (const bad of [frame.subarray(0, frame.length - 4), frame.subarray(0, 6), Buffer.from('not a zstd frame'), Buffer.alloc(0)]) {
      expect(() => zstdDecompress(bad)).toThrow(/zstd/)
      expect(zstdDecompress(frame).equals(data)).toBe(true)
    }
  })
})
