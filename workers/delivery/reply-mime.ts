// The MIME structure of an anonymous reply (RFC 2045, RFC 2046 §5.1) carries the user's mail
// client: boundaries such as `----=_Part_…` (Thunderbird, JavaMail) or `Apple-Mail=_…`,
// Content-IDs with the host name in them, X-Attachment-Id and other part fields. Every multipart
// boundary is replaced by a random one, part fields are reduced to what a reader needs, and each
// Content-ID becomes a random one, rewritten consistently in the `cid:` references of the HTML
// parts (RFC 2392), decoding and re-encoding base64 and quoted-printable bodies for that. The
// preamble and epilogue go too. A structure we cannot follow is left as it came.
import { randomUUID } from 'node:crypto'
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp'
import { fieldValue, joinMessage, makeField, splitMessage, type HeaderField } from '../../lib/raw-message.ts'

const PART_KEPT = new Set(['content-type', 'content-transfer-encoding', 'content-disposition', 'content-id', 'content-language'])
const BOUNDARY = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i
const MAX_DEPTH = 10

interface Scrub { cids: Map<string, string> }

const newBoundary = () => `=_veilmail_${randomUUID().replace(/-/g, '')}` // "=_" never occurs in base64 or quoted-printable

function boundaryOf(contentType: string): string | undefined {
  const m = BOUNDARY.exec(contentType)
  return m ? (m[1] ?? m[2]).replace(/\\(.)/g, '$1') : undefined
}

/** The body parts between `--boundary` lines; undefined without a closing delimiter (RFC 2046 §5.1.1). */
function splitParts(text: string, boundary: string): string[] | undefined {
  const parts: string[][] = []
  let current: string[] | undefined
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith(`--${boundary}`)) {
      const rest = line.slice(boundary.length + 2).trimEnd()
      if (rest === '--') {
        if (current) parts.push(current)
        return parts.length ? parts.map((p) => p.join('\r\n')) : undefined
      }
      if (rest === '') {
        if (current) parts.push(current)
        current = []
        continue
      }
    }
    current?.push(line)
  }
  return undefined
}

function replaceCids(text: string, cids: Map<string, string>): string {
  let out = text
  for (const [from, to] of cids) out = out.split(`cid:${from}`).join(`cid:${to}`)
  return out
}

/** `cid:` references in an HTML body, in its transfer encoding (worked on as latin1: bytes kept). */
function rewriteHtml(body: string, encoding: string, cids: Map<string, string>): string {
  if (encoding === 'base64') {
    const decoded = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('latin1')
    return Buffer.from(replaceCids(decoded, cids), 'latin1').toString('base64').replace(/.{76}/g, '$&\r\n') + '\r\n'
  }
  if (encoding === 'quoted-printable') {
    const decoded = body.replace(/=\r?\n/g, '').replace(/=([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    return qpWrap(qpEncode(Buffer.from(replaceCids(decoded, cids), 'latin1')), 76) + '\r\n'
  }
  return replaceCids(body, cids)
}

function scrubPart(text: string, scrub: Scrub, depth: number): string {
  const { headers, body } = splitMessage(Buffer.from(text, 'latin1'))
  const kept: HeaderField[] = []
  let type = ''
  let encoding = ''
  for (const field of headers) {
    if (!PART_KEPT.has(field.key)) continue
    if (field.key === 'content-id') {
      const id = /<([^<>]+)>/.exec(fieldValue(field))?.[1]
      const fresh = id && scrub.cids.get(id)
      if (fresh) kept.push(makeField('Content-ID', `<${fresh}>`))
      continue
    }
    if (field.key === 'content-type') type = fieldValue(field)
    if (field.key === 'content-transfer-encoding') encoding = fieldValue(field).toLowerCase()
    kept.push(field)
  }
  let content = body.toString('latin1')
  const rebuilt = /^multipart\//i.test(type) ? scrubMultipart(type, content, scrub, depth + 1) : undefined
  if (rebuilt) {
    content = rebuilt.body
    kept.splice(kept.findIndex((f) => f.key === 'content-type'), 1, makeField('Content-Type', rebuilt.contentType))
  } else if (/^text\/html/i.test(type) && scrub.cids.size) {
    content = rewriteHtml(content, encoding, scrub.cids)
  }
  return joinMessage(kept, Buffer.from(content, 'latin1')).toString('latin1')
}

function scrubMultipart(contentType: string, body: string, scrub: Scrub, depth: number): { contentType: string; body: string } | undefined {
  const boundary = boundaryOf(contentType)
  const parts = boundary && depth <= MAX_DEPTH ? splitParts(body, boundary) : undefined
  if (!parts) return undefined
  const fresh = newBoundary()
  const text = parts.map((p) => `--${fresh}\r\n${scrubPart(p, scrub, depth)}`).join('\r\n') + `\r\n--${fresh}--\r\n`
  return { contentType: contentType.replace(BOUNDARY, `; boundary="${fresh}"`), body: text }
}

/** The reply's top-level Content-Type and body with the client's MIME fingerprints replaced. */
export function scrubReplyMime(headers: HeaderField[], body: Buffer): { headers: HeaderField[]; body: Buffer } {
  const index = headers.findIndex((h) => h.key === 'content-type')
  const contentType = index < 0 ? '' : fieldValue(headers[index])
  if (!/^multipart\//i.test(contentType)) return { headers, body }
  const text = body.toString('latin1')
  const cids = new Map<string, string>()
  for (const m of text.matchAll(/^Content-ID:[ \t]*<([^<>\r\n]+)>/gim)) {
    if (!cids.has(m[1])) cids.set(m[1], `${randomUUID()}@veilmail.invalid`)
  }
  const rebuilt = scrubMultipart(contentType, text, { cids }, 1)
  if (!rebuilt) return { headers, body }
  const out = [...headers]
  out[index] = makeField('Content-Type', rebuilt.contentType)
  return { headers: out, body: Buffer.from(rebuilt.body, 'latin1') }
}
