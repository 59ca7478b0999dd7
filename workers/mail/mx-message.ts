// Reads the DATA stream (already dot-unstuffed by smtp-server, RFC 5321 §4.5.2), counting while
// it streams: past the size limit nothing more is passed on (552, RFC 1870 §6.4), and a line
// longer than the cap (RFC 5321 §4.5.3.1.6 says 1000 octets; we allow more, as real mail exceeds
// it) marks the message refused. `receiveMessage` hands the bytes on as they come (the MX seals
// them into the spool, docs/mail-flow.md "Streaming") and keeps only the header part, which the accept decision
// reads; `readMessage` keeps the whole message (submission). The stream is always read to its
// end, so the client gets its answer in order.
import type { Readable } from 'node:stream'
import { bodyOffset, splitMessage, type HeaderField } from '../../lib/raw-message.ts'
import { replies } from './smtp-reply.ts'

export interface MessageLimits {
  maxBytes: number
  maxLineBytes: number
  /** the header part (up to the empty line) may not be longer: it is held in memory; unset = not read */
  maxHeaderBytes?: number
}

export interface MessageSink {
  /** the header part is complete; false stops passing on the rest (the message is refused anyway) */
  headers?(fields: HeaderField[]): boolean
  /** the message's bytes in order, while within the limits; awaited, so a slow sink slows the client. A throw ends the passing on, and is thrown once the message is read */
  write?(data: Buffer): Promise<void> | void
}

export interface ReceivedMessage {
  /** the header fields, read when `maxHeaderBytes` is set */
  headers: HeaderField[]
  size: number
}

export async function receiveMessage(stream: Readable & { sizeExceeded?: boolean }, limits: MessageLimits, sink: MessageSink = {}): Promise<ReceivedMessage> {
  const maxHeaderBytes = limits.maxHeaderBytes ?? 0
  let size = 0
  let line = 0
  let lineTooLong = false
  let passing = true
  let head: Buffer | undefined = limits.maxHeaderBytes === undefined ? undefined : Buffer.alloc(0) // until the empty line ending the header part
  let headers: HeaderField[] | undefined
  let sinkError: unknown
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limits.maxBytes) passing = false
    if (!lineTooLong) {
      let start = 0
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) {
        if (line + (i - start) > limits.maxLineBytes) lineTooLong = true
        line = 0
        start = i + 1
      }
      line += chunk.length - start
      if (line > limits.maxLineBytes) lineTooLong = true
      if (lineTooLong) passing = false
    }
    if (head && passing) {
      const scanned = head.length
      head = Buffer.concat([head, chunk])
      // from a little before the new bytes: the empty line may straddle two chunks
      const at = bodyOffset(head, Math.max(0, scanned - 3))
      if (at >= 0) {
        headers = splitMessage(head.subarray(0, at)).headers
        head = undefined
        if (sink.headers && !sink.headers(headers)) passing = false
      } else if (head.length > maxHeaderBytes) passing = false
    }
    if (passing && sink.write) {
      try {
        await sink.write(chunk)
      } catch (error) {
        // the rest is still read, so the client hears the answer when it has finished sending
        sinkError ??= error
        passing = false
      }
    }
  }
  if (sinkError !== undefined) throw sinkError
  if (size > limits.maxBytes || stream.sizeExceeded) throw replies.tooBig(limits.maxBytes)
  if (lineTooLong) throw replies.lineTooLong(limits.maxLineBytes)
  if (head && head.length > maxHeaderBytes) throw replies.headerTooLong(maxHeaderBytes)
  // a message without an empty line is all header (RFC 5322 §3.5: the body is optional)
  return { headers: headers ?? (head ? splitMessage(head).headers : []), size }
}

/** The whole message in memory. */
export async function readMessage(stream: Readable & { sizeExceeded?: boolean }, limits: MessageLimits): Promise<Buffer> {
  const chunks: Buffer[] = []
  const { size } = await receiveMessage(stream, limits, { write: (data) => void chunks.push(data) })
  return Buffer.concat(chunks, size)
}
