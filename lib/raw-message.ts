// A message as bytes: its header fields (RFC 5322 §2.2, folded lines kept as they were) and its
// body, which we never touch. Header text is held as latin1 ("binary") strings so that every
// byte, 8-bit or not, comes back out unchanged.

export interface HeaderField {
  /** lower-cased field name */
  key: string
  /** the whole field, name and folded value, without the final line break */
  line: string
}

export interface SplitMessage {
  headers: HeaderField[]
  body: Buffer
}

/**
 * Where the body starts: after the first empty line (CRLF or bare LF), -1 when there is none
 * yet. `from` lets a reader that gets a message in pieces scan only what is new.
 */
export function bodyOffset(raw: Buffer, from = 0): number {
  for (let i = raw.indexOf(0x0a, from); i !== -1; i = raw.indexOf(0x0a, i + 1)) {
    if (i === 0 || (i === 1 && raw[0] === 0x0d)) return i + 1
    const next = raw[i + 1]
    if (next === 0x0a) return i + 2
    if (next === 0x0d && raw[i + 2] === 0x0a) return i + 3
  }
  return -1
}

/**
 * A message's header bytes (up to and with the empty line) from its first pieces, and where its
 * body starts; all of it when there is no empty line. Reads no piece past the header's end.
 */
export async function readHeaderBytes(pieces: AsyncIterable<Buffer>): Promise<{ head: Buffer; bodyStart: number }> {
  let head = Buffer.alloc(0)
  for await (const piece of pieces) {
    const scanned = head.length
    head = Buffer.concat([head, piece])
    // from a little before the new bytes: the empty line may straddle two pieces
    const at = bodyOffset(head, Math.max(0, scanned - 3))
    if (at >= 0) return { head: head.subarray(0, at), bodyStart: at }
  }
  return { head, bodyStart: head.length }
}

/** Splits at the first empty line (CRLF or bare LF); a message without one is all header. */
export function splitMessage(raw: Buffer): SplitMessage {
  const bodyStart = bodyOffset(raw)
  const headerText = raw.subarray(0, bodyStart < 0 ? raw.length : bodyStart).toString('latin1')
  const headers: HeaderField[] = []
  for (const line of headerText.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length) headers[headers.length - 1].line += '\r\n' + line
    else if (line.includes(':')) headers.push({ key: line.slice(0, line.indexOf(':')).trim().toLowerCase(), line })
    // a line that is neither a field nor a continuation is dropped: it would corrupt what follows
  }
  return { headers, body: bodyStart < 0 ? Buffer.alloc(0) : raw.subarray(bodyStart) }
}

export function joinMessage(headers: HeaderField[], body: Buffer): Buffer {
  const head = headers.map((h) => h.line + '\r\n').join('') + '\r\n'
  return Buffer.concat([Buffer.from(head, 'latin1'), body])
}

/** The unfolded value of a field (RFC 5322 §2.2.3), as latin1 text. */
export function fieldValue(field: HeaderField): string {
  return field.line.slice(field.line.indexOf(':') + 1).replace(/\r?\n(?=[ \t])/g, '').trim()
}

export function firstValue(headers: HeaderField[], key: string): string | undefined {
  const field = headers.find((h) => h.key === key)
  return field ? fieldValue(field) : undefined
}

/** A new field; `value` must already be ASCII (encode words first). Long lines are folded at spaces. */
export function makeField(name: string, value: string): HeaderField {
  const words = `${name}: ${value}`.split(' ')
  let line = ''
  let current = ''
  for (const word of words) {
    if (current && current.length + 1 + word.length > 76) {
      line += current + '\r\n'
      current = ' ' + word
    } else current = current ? current + ' ' + word : word
  }
  return { key: name.toLowerCase(), line: line + current }
}

/** Text of a latin1-held header value as UTF-8 (8-bit headers, RFC 6532). */
export function utf8(value: string): string {
  return Buffer.from(value, 'latin1').toString('utf8')
}

/** The `<id>`s of a Message-ID, In-Reply-To or References value (RFC 5322 §3.6.4), in order. */
export function messageIds(value: string): string[] {
  return value.match(/<[^<>\s]+>/g) ?? []
}
