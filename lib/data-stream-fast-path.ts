// nodemailer escapes every message it sends (smtp-connection/data-stream.js): a dot at the start of
// a line is doubled, a bare CR or a bare LF becomes CRLF. It looks at each byte in JavaScript,
// ~14 ns a byte: 150 µs of the delivery process's CPU for a 10 KB forward. Most pieces of a
// message need none of it (CRLF lines, none starting with a dot), which Buffer.indexOf finds line
// by line in native code; such a piece goes out unchanged, as nodemailer's loop would send it (it
// inserts nothing). Any other piece goes through nodemailer's own loop.
// Such a piece is held until the next one comes, so the message's last piece and the terminating
// dot leave in one write: one segment to the relay per message end, not a 3-byte one after it.
// nodemailer must keep the shape this relies on: checked at import (lib/library-shape.ts), so an
// upgrade that changes it stops with a message.
import DataStream from 'nodemailer/lib/smtp-connection/data-stream'
import { expectLibraryShape } from './library-shape.ts'

const CR = 0x0d
const LF = 0x0a
const DOT = 0x2e

interface Escaper {
  inByteCount: number
  outByteCount: number
  /** the last byte of the previous piece, false before the first */
  lastByte: number | false
  /** an unescaped piece not pushed yet: the next piece or the end pushes it */
  held?: Buffer
  push(chunk: Buffer): boolean
}

type Transform = (this: Escaper, chunk: Buffer | string, encoding: BufferEncoding, done: () => void) => void
type Flush = (this: Escaper, done: () => void) => void

const proto = DataStream.prototype as unknown as { _transform: Transform; _flush: Flush }
const nodemailerTransform = proto._transform
const nodemailerFlush = proto._flush
expectLibraryShape("nodemailer's DataStream._transform", nodemailerTransform, ['this.lastByte', 'this.inByteCount', 'this.outByteCount', 'INSERT_LF_DOT', 'INSERT_CR', 'INSERT_DOT'], 'lib/data-stream-fast-path.ts')
expectLibraryShape("nodemailer's DataStream._flush", nodemailerFlush, ['this.lastByte === 0x0a', "'.\\r\\n'", 'this.lastByte === 0x0d', "'\\n.\\r\\n'", "'\\r\\n.\\r\\n'", 'this.outByteCount'], 'lib/data-stream-fast-path.ts')

/** Whether nodemailer's loop would insert nothing into `chunk`, coming after `lastByte`. */
export function needsNoEscaping(chunk: Buffer, lastByte: number | false): boolean {
  const first = chunk[0]
  if (lastByte === CR ? first !== LF : first === LF) return false
  if (first === DOT && (lastByte === LF || lastByte === false)) return false
  // every CR is followed by an LF (one at the very end is the next piece's question)
  for (let at = chunk.indexOf(CR); at !== -1 && at < chunk.length - 1; at = chunk.indexOf(CR, at + 1)) {
    if (chunk[at + 1] !== LF) return false
  }
  // every LF follows a CR, and no line starts with a dot
  for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) {
    if ((at === 0 ? lastByte : chunk[at - 1]) !== CR) return false
    if (chunk[at + 1] === DOT) return false
  }
  return true
}

proto._transform = function transform(this: Escaper, chunk, encoding, done) {
  if (!Buffer.isBuffer(chunk) || !chunk.length || !needsNoEscaping(chunk, this.lastByte)) {
    releaseHeld(this)
    return nodemailerTransform.call(this, chunk, encoding, done)
  }
  this.inByteCount += chunk.length
  this.outByteCount += chunk.length
  releaseHeld(this)
  this.held = chunk
  this.lastByte = chunk[chunk.length - 1]
  done()
}

proto._flush = function flush(this: Escaper, done) {
  const held = this.held
  if (!held) return nodemailerFlush.call(this, done)
  this.held = undefined
  // nodemailer's terminator for what the message ends with (checked above)
  const end = this.lastByte === LF ? '.\r\n' : this.lastByte === CR ? '\n.\r\n' : '\r\n.\r\n'
  this.outByteCount += end.length
  this.push(Buffer.concat([held, Buffer.from(end, 'latin1')]))
  done()
}

function releaseHeld(stream: Escaper) {
  if (!stream.held) return
  stream.push(stream.held)
  stream.held = undefined
}

/** nodemailer's own loop and end, for comparing (the test). */
export const nodemailerEscaping: Transform = nodemailerTransform
export const nodemailerEnd: Flush = nodemailerFlush
