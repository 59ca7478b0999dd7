// The IMAP wire format as the hostile test server needs it (RFC 3501 §4, §9): client commands
// framed with their literals (synchronizing, and RFC 7888 LITERAL+), arguments tokenized,
// strings and mailbox names encoded for the server's answers, sequence sets and dates.
// Whatever a client sends ends in a frame, a limit error, or a parse that is merely wrong:
// nothing here throws on input except the limits.

/** A piece of a client command: a line (CRLF removed) or the literal that followed it. */
export type CommandPiece = { text: string } | { literal: Buffer }

/** An argument: an atom or a string (quoted or literal, decoded), or a parenthesized list. */
export type ImapParam = string | ImapParam[]

export class ClientLimitError extends Error {
  override name = 'ClientLimitError'
}

const LITERAL_MARKER = /~?\{(\d{1,12})(\+?)\}$/

/**
 * Splits client bytes into commands. A line ending in `{n}` announces a literal: `onContinue` is
 * called for a synchronizing one, which the server must answer with a continuation request.
 */
export class CommandFramer {
  #rest = Buffer.alloc(0)
  #pieces: CommandPiece[] = []
  #literalWaiting = 0
  #literalParts: Buffer[] = []
  #commandBytes = 0
  readonly #maxLine: number
  readonly #maxCommand: number
  readonly #onContinue: () => void

  constructor(limits: { maxLine: number; maxCommand: number }, onContinue: () => void) {
    this.#maxLine = limits.maxLine
    this.#maxCommand = limits.maxCommand
    this.#onContinue = onContinue
  }

  /** The commands completed by this chunk; throws ClientLimitError past a limit. */
  push(chunk: Buffer): CommandPiece[][] {
    const done: CommandPiece[][] = []
    const data = this.#rest.length ? Buffer.concat([this.#rest, chunk]) : chunk
    let pos = 0
    while (pos < data.length) {
      if (this.#literalWaiting > 0) {
        const take = Math.min(this.#literalWaiting, data.length - pos)
        this.#literalParts.push(data.subarray(pos, pos + take))
        pos += take
        this.#literalWaiting -= take
        if (this.#literalWaiting === 0) this.#endLiteral()
        continue
      }
      const lf = data.indexOf(0x0a, pos)
      if (lf < 0) break
      const text = data.toString('utf8', pos, lf > pos && data[lf - 1] === 0x0d ? lf - 1 : lf)
      this.#count(lf + 1 - pos)
      pos = lf + 1
      this.#pieces.push({ text })
      const marker = LITERAL_MARKER.exec(text)
      if (marker) {
        this.#literalWaiting = Number(marker[1])
        this.#count(this.#literalWaiting)
        if (!marker[2]) this.#onContinue()
        if (this.#literalWaiting === 0) this.#endLiteral()
        continue
      }
      done.push(this.#pieces)
      this.#pieces = []
      this.#commandBytes = 0
    }
    this.#rest = Buffer.from(data.subarray(pos))
    if (this.#rest.length > this.#maxLine) throw new ClientLimitError('line too long')
    return done
  }

  #endLiteral() {
    this.#pieces.push({ literal: Buffer.concat(this.#literalParts) })
    this.#literalParts = []
  }

  #count(bytes: number) {
    this.#commandBytes += bytes
    if (this.#commandBytes > this.#maxCommand) throw new ClientLimitError('command too long')
  }
}

/** The command's text with each literal inlined (its `{n}` marker dropped). */
export function commandText(pieces: CommandPiece[]): string {
  return pieces.map((p) => ('text' in p ? p.text.replace(LITERAL_MARKER, '') : p.literal.toString('utf8'))).join('')
}

/** Tokenizes a command: atoms (a `[...]` section kept whole), quoted strings, literals, lists. */
export function parseParams(pieces: CommandPiece[]): ImapParam[] {
  const root: ImapParam[] = []
  const stack: ImapParam[][] = [root]
  const top = () => stack[stack.length - 1]
  for (const piece of pieces) {
    if ('literal' in piece) {
      top().push(piece.literal.toString('utf8'))
      continue
    }
    const text = piece.text.replace(LITERAL_MARKER, '')
    let i = 0
    while (i < text.length) {
      const c = text[i]
      if (c === ' ') {
        i++
      } else if (c === '(') {
        const list: ImapParam[] = []
        top().push(list)
        stack.push(list)
        i++
      } else if (c === ')') {
        if (stack.length > 1) stack.pop()
        i++
      } else if (c === '"') {
        let value = ''
        for (i++; i < text.length && text[i] !== '"'; i++) {
          if (text[i] === '\\' && i + 1 < text.length) i++
          value += text[i]
        }
        i++
        top().push(value)
      } else {
        const start = i
        for (let depth = 0; i < text.length; i++) {
          const d = text[i]
          if (d === '[') depth++
          else if (d === ']') depth--
          else if (depth <= 0 && (d === ' ' || d === '(' || d === ')')) break
        }
        top().push(text.slice(start, i))
      }
    }
  }
  return root
}

/**
 * RFC 3501 §4.3: a quoted string when every character may be quoted (beyond ASCII too once
 * UTF8=ACCEPT is on, RFC 6855 §3), else a literal.
 */
export function imapString(value: string, utf8 = false): string {
  if ((utf8 ? /^[\x20-\x7e\u0080-\uffff]*$/ : /^[\x20-\x7e]*$/).test(value)) return `"${value.replace(/["\\]/g, '\\$&')}"`
  return `{${Buffer.byteLength(value)}}\r\n${value}`
}

/**
 * A mailbox name as a server sends it: characters beyond ASCII in modified UTF-7 (RFC 3501
 * §5.1.3) unless UTF8=ACCEPT is on. Control characters (NUL, CR, LF) are not encoded, as a
 * broken server would not: such a name goes out as a literal.
 */
export function mailboxName(name: string, utf8: boolean): string {
  return utf8 ? imapString(name, true) : imapString(toModifiedUtf7(name))
}

export function toModifiedUtf7(name: string): string {
  return name.replace(/&/g, '&-').replace(/[^\x00-\x7f]+/g, (run) => {
    const utf16 = Buffer.alloc(run.length * 2)
    for (let i = 0; i < run.length; i++) utf16.writeUInt16BE(run.charCodeAt(i), i * 2)
    return `&${utf16.toString('base64').replace(/=+$/, '').replace(/\//g, ',')}-`
  })
}

export function fromModifiedUtf7(name: string): string {
  return name.replace(/&([^-]*)-/g, (_, encoded: string) => {
    if (!encoded) return '&'
    const utf16 = Buffer.from(encoded.replace(/,/g, '/'), 'base64')
    let out = ''
    for (let i = 0; i + 1 < utf16.length; i += 2) out += String.fromCharCode(utf16.readUInt16BE(i))
    return out
  })
}

/** A sequence set (RFC 3501 §9) as ranges, `*` being `largest`; undefined when malformed. */
export function parseSequenceSet(set: string, largest: number): Array<[number, number]> | undefined {
  const ranges: Array<[number, number]> = []
  for (const part of set.split(',')) {
    const ends = part.split(':').map((end) => (end === '*' ? largest : /^\d{1,10}$/.test(end) ? Number(end) : NaN))
    if (ends.length > 2 || ends.some((end) => Number.isNaN(end))) return undefined
    const [a, b = a] = ends
    ranges.push([Math.min(a, b), Math.max(a, b)])
  }
  return ranges
}

export const inRanges = (ranges: Array<[number, number]>, n: number) => ranges.some(([a, b]) => n >= a && n <= b)

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** RFC 3501 date-time, in UTC: "01-Jan-2026 09:30:00 +0000". */
export function internalDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `"${two(date.getUTCDate())}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000"`
}
