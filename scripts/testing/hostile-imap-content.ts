// A message's bytes as the hostile IMAP server sends them: the raw message a test gave, or a
// message of any size generated as it is read (a plain-text header, then lines of filler), so a
// literal of hundreds of megabytes is never held in memory: it is read back in 64 KiB chunks,
// from any offset (partial FETCH, RFC 3501 §6.4.5), the same bytes each time.
import type { HostileMessage } from './hostile-imap.ts'

/** What the server needs of a message's source: its size, where its header ends, its bytes. */
export interface MessageContent {
  size: number
  /** bytes of the header, blank line included: BODY[HEADER] is [0, headerSize), BODY[TEXT] the rest */
  headerSize: number
  /** the bytes in [start, end), in chunks of at most CHUNK_BYTES */
  read(start: number, end: number): Generator<Buffer>
}

export const CHUNK_BYTES = 64 * 1024

export function messageContent(message: HostileMessage): MessageContent {
  return message.streamBytes !== undefined ? generatedContent(message.streamBytes) : heldContent(message.raw ?? '')
}

/** RFC 7162 MODSEQ: the message's own, else its UID (so later mail has higher ones). */
export const modseqOf = (message: HostileMessage) => message.modseq ?? message.uid

/** A raw message held by the test. */
export function heldContent(raw: Buffer | string): MessageContent {
  const bytes = typeof raw === 'string' ? Buffer.from(raw) : raw
  const crlf = bytes.indexOf('\r\n\r\n')
  const lf = bytes.indexOf('\n\n')
  const headerSize = crlf >= 0 ? crlf + 4 : lf >= 0 ? lf + 2 : bytes.length
  return {
    size: bytes.length,
    headerSize,
    *read(start, end) {
      for (let pos = start; pos < end; pos += CHUNK_BYTES) yield bytes.subarray(pos, Math.min(end, pos + CHUNK_BYTES))
    },
  }
}

const FILLER_LINE = `${'x'.repeat(78)}\r\n`
/** Whole filler lines, so a chunk cut at any offset continues the same pattern. */
const FILLER = Buffer.from(FILLER_LINE.repeat(Math.floor(CHUNK_BYTES / FILLER_LINE.length)))

/** A message of exactly `size` bytes, made as it is read. */
export function generatedContent(size: number): MessageContent {
  const header = Buffer.from(`From: Generator <generator@hostile.test>\r\nTo: user@hostile.test\r\nSubject: Generated message of ${size} bytes\r\n` +
    `Message-ID: <generated-${size}@hostile.test>\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n`).subarray(0, size)
  return {
    size,
    headerSize: header.length,
    *read(start, end) {
      if (start < header.length) yield header.subarray(start, Math.min(end, header.length))
      for (let pos = Math.max(start, header.length); pos < end;) {
        const offset = (pos - header.length) % FILLER_LINE.length
        const chunk = FILLER.subarray(offset, Math.min(FILLER.length, offset + end - pos))
        yield chunk
        pos += chunk.length
      }
    },
  }
}
