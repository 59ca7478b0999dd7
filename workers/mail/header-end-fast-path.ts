// mailauth's MessageParser (the base of its DKIM verifier, which the MX and the delivery run on
// every message they check) looks for the end of the header section one byte at a time, and keeps
// the last four bytes in an array that it copies for every byte: a header section of 2 KB made
// 2,000 arrays. They were 12% of what the delivery process allocated per forward, and so of its
// young-generation collections. Here Buffer.indexOf finds each LF in native code, and only the
// bytes before an LF are looked at, by the same rule as mailauth's (an LF after an LF, after
// CR LF, or as the first line of the message ends the header section); what happens next (the
// headers parsed, the body handed on) is mailauth's own code.
// mailauth must keep the shape this relies on: checked at import (lib/library-shape.ts), so an
// upgrade that changes it stops with a message.
import { createRequire } from 'node:module'
import { expectLibraryShape } from '../../lib/library-shape.ts'

const CR = 0x0d
const LF = 0x0a

interface Parser {
  state: 'header' | 'body'
  /** the last (up to four) bytes of the header section seen so far */
  stateBytes: number[]
  /** the bytes of the header section seen so far */
  headerBytes: number
  headerChunks: Buffer[]
  emitHeaders(chunk?: Buffer): Promise<void>
  nextChunk(chunk: Buffer): Promise<void>
}

const require = createRequire(import.meta.url)
const mailauthRequire = createRequire(require.resolve('mailauth'))
export const { MessageParser } = mailauthRequire('./dkim/message-parser.js') as { MessageParser: { prototype: { processChunk(this: Parser, chunk: Buffer): Promise<void> } } }

const mailauthProcessChunk = MessageParser.prototype.processChunk
expectLibraryShape("mailauth's MessageParser.processChunk", mailauthProcessChunk, ["this.state === 'header'", 'this.stateBytes', 'this.headerBytes', 'this.emitHeaders(chunk)',
  'this.emitHeaders(chunk.slice(0, i + 1))', 'this.headerChunks.push(chunk)', 'this.nextChunk(chunk)', 'this.headerBytes === 1', 'this.headerBytes === 2'], 'workers/mail/header-end-fast-path.ts')

/**
 * Where in `chunk` the header section ends (the index of its last byte, an LF), or -1 when it goes
 * on past the chunk; `before` are the bytes of the header section before the chunk (the last few),
 * `seen` how many there were.
 */
export function headerEnd(chunk: Buffer, before: number[], seen: number): number {
  const byteBefore = (i: number, back: number) => (i - back >= 0 ? chunk[i - back] : before[before.length - (back - i)])
  for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) {
    const b1 = byteBefore(i, 1)
    const count = seen + i + 1
    // an empty line, or an empty first line: an empty header section (RFC 5322 §2.1)
    if (b1 === LF || (b1 === CR && byteBefore(i, 2) === LF) || count === 1 || (count === 2 && b1 === CR)) return i
  }
  return -1
}

MessageParser.prototype.processChunk = async function processChunk(this: Parser, chunk: Buffer) {
  if (!chunk || !chunk.length) return
  if (this.state === 'header') {
    const end = headerEnd(chunk, this.stateBytes, this.headerBytes)
    if (end === -1) {
      this.stateBytes = [...this.stateBytes, ...chunk.subarray(-4)].slice(-4)
      this.headerBytes += chunk.length
      this.headerChunks.push(chunk)
      return
    }
    this.headerBytes += end + 1
    if (end === chunk.length - 1) {
      await this.emitHeaders(chunk)
      return
    }
    await this.emitHeaders(chunk.subarray(0, end + 1))
    chunk = chunk.subarray(end + 1)
  }
  await this.nextChunk(chunk)
}

/** mailauth's own, for the tests that compare the two. */
export const mailauthHeaderScan = mailauthProcessChunk
