// Reads the DATA stream (already dot-unstuffed by smtp-server, RFC 5321 §4.5.2) into memory,
// counting while it streams: past the size limit nothing more is kept (552, RFC 1870 §6.4), and
// a line longer than the cap (RFC 5321 §4.5.3.1.6 says 1000 octets; we allow more, as real mail
// exceeds it) marks the message refused. The stream is always read to its end, so the client
// gets its answer in order.
import type { Readable } from 'node:stream'
import { replies } from './smtp-reply.ts'

export interface MessageLimits {
  maxBytes: number
  maxLineBytes: number
}

export async function readMessage(stream: Readable & { sizeExceeded?: boolean }, limits: MessageLimits): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  let line = 0
  let lineTooLong = false
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= limits.maxBytes) chunks.push(chunk)
    if (!lineTooLong) {
      let start = 0
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) {
        if (line + (i - start) > limits.maxLineBytes) lineTooLong = true
        line = 0
        start = i + 1
      }
      line += chunk.length - start
      if (line > limits.maxLineBytes) lineTooLong = true
    }
  }
  if (size > limits.maxBytes || stream.sizeExceeded) throw replies.tooBig(limits.maxBytes)
  if (lineTooLong) throw replies.lineTooLong(limits.maxLineBytes)
  return Buffer.concat(chunks, size)
}
