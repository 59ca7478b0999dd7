// One fetched message → what the list and the detail need (sender, recipients, subject, date,
// preview, text and HTML bodies, attachments), parsed by mailparser. Malformed mail never fails
// a sync: what can be read is kept, the rest falls back to the IMAP envelope.
import type { Readable } from 'node:stream'
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser'
import addressparser from 'nodemailer/lib/addressparser'
import { bodyOffset } from '../../lib/raw-message.ts'
import { cleanLine, cleanParsedMessage, MAX_THREAD_SUBJECT } from './stored-text.ts'

export interface ParsedAttachment {
  filename: string
  contentType: string
  contentId: string | null
  content: Buffer
  /** shown as an attachment (not only an inline part of the HTML) */
  listed: boolean
}

export interface ParsedMessage {
  messageId: string | null
  inReplyTo: string | null
  referenceIds: string[]
  subject: string
  fromAddress: string
  fromName: string
  toAddress: string
  ccAddresses: string
  bccAddresses: string
  /** where replies go, when the sender named it (Reply-To) */
  replyTo?: string
  date: Date | null
  text: string | null
  html: string | null
  /** the first 150 characters of the text, whitespace collapsed (the list shows 100) */
  preview: string
  attachments: ParsedAttachment[]
}

const PREVIEW_CHARS = 150

function addresses(value: AddressObject | AddressObject[] | undefined): { address: string; name: string }[] {
  const list = value ? (Array.isArray(value) ? value : [value]) : []
  return list.flatMap((a) => a.value).flatMap(function flat(v): { address: string; name: string }[] {
    return v.group ? v.group.flatMap(flat) : [{ address: v.address ?? '', name: v.name ?? '' }]
  }).filter((a) => a.address)
}

const joined = (value: AddressObject | AddressObject[] | undefined) => addresses(value).map((a) => a.address).join(', ')

const messageIds = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((v) => v.match(/<[^<>\s]+>/g) ?? []).slice(-50)

/** Collapses whitespace; the start of the message as text (HTML-only mail: mailparser's text of it). */
export function previewOf(text: string | null): string {
  // text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS) in one pass over the start only: a run
  // of whitespace becomes one space when more text follows it, and the scan stops once enough is kept
  const full = text ?? ''
  let preview = ''
  let kept = 0
  let space = false
  for (let i = 0, start = -1; i <= full.length; i++) {
    if (i < full.length && !isSpace(full.charCodeAt(i))) {
      if (start < 0) start = i
      continue
    }
    if (start >= 0) {
      const word = full.slice(start, Math.min(i, start + PREVIEW_CHARS - kept - (space ? 1 : 0)))
      preview += (space ? ' ' : '') + word
      kept += word.length + (space ? 1 : 0)
      if (kept >= PREVIEW_CHARS) return preview.slice(0, PREVIEW_CHARS)
      start = -1
      space = true
    }
  }
  return preview
}

/** JavaScript's \s (WhiteSpace and LineTerminator, ECMA-262 §12.2 and §12.3), as replace(/\s+/) and trim() read it. */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** Subject for the conversation rule: leading Re:/Fw:/Fwd: removed, case-insensitive. */
export function threadSubject(subject: string): string {
  let s = subject.trim()
  for (let previous = ''; previous !== s;) {
    previous = s
    s = s.replace(/^\s*(re|fw|fwd)\s*(\[\d+\])?\s*:\s*/i, '')
  }
  // indexed: bounded, so that no subject is too long for an index row
  return cleanLine(s.toLowerCase(), MAX_THREAD_SUBJECT)
}

/**
 * A fetched message, or a large one as a stream (never held whole as one buffer), with every field
 * as it may be stored and shown (stored-text.ts: what anyone can put in a mail must not stop a sync).
 */
export async function parseMessage(source: Buffer | Readable): Promise<ParsedMessage> {
  const plain = Buffer.isBuffer(source) ? await parsePlainText(source) : undefined
  return cleanParsedMessage(plain ?? await parseWhole(source))
}

/** Any message, through mailparser whole. */
export async function parseWhole(source: Buffer | Readable): Promise<ParsedMessage> {
  let mail: ParsedMail
  try {
    mail = await simpleParser(source, PARSER_OPTIONS)
  } catch (error) {
    // a stream that failed (its connection, a limit) is not a message: the caller decides
    if (!Buffer.isBuffer(source)) throw error
    // unreadable as MIME: a fetched message is kept as its raw text
    const raw = source.toString('latin1')
    return {
      messageId: null, inReplyTo: null, referenceIds: [], subject: '', fromAddress: '', fromName: '', toAddress: '', ccAddresses: '',
      bccAddresses: '', date: null, text: raw, html: null, preview: previewOf(raw), attachments: [],
    }
  }
  return fromParsed(mail, mail.text ?? null)
}

const PARSER_OPTIONS = { skipImageLinks: true, skipTextToHtml: true, keepCidLinks: true }

function fromParsed(mail: ParsedMail, text: string | null): ParsedMessage {
  const from = addresses(mail.from)[0]
  const html = typeof mail.html === 'string' ? mail.html : null
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null
  return {
    messageId: messageIds(mail.messageId)[0] ?? null,
    inReplyTo: messageIds(mail.inReplyTo)[0] ?? null,
    referenceIds: messageIds(mail.references),
    subject: mail.subject ?? '',
    fromAddress: from?.address ?? '',
    fromName: from?.name ?? '',
    toAddress: joined(mail.to),
    ccAddresses: joined(mail.cc),
    bccAddresses: joined(mail.bcc),
    replyTo: joined(mail.replyTo),
    date,
    text,
    html,
    preview: previewOf(text),
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? (a.contentType === 'message/rfc822' ? 'message.eml' : 'attachment'),
      contentType: a.contentType || 'application/octet-stream',
      contentId: a.contentId ?? null,
      content: a.content,
      listed: !a.related,
    })),
  }
}

/** Charsets mailparser reads as UTF-8 without a charset decoder (its own list). */
const UTF8_CHARSETS = new Set(['ascii', 'usascii', 'utf8'])

/** What the plain-text reading takes from the header block: the message's fields and its body's encoding. */
interface PlainHeaders { fields: Omit<ParsedMessage, 'text' | 'html' | 'preview' | 'attachments'>; encoding: string }

/**
 * A single-part text/plain message in UTF-8 or US-ASCII, the commonest plain mail, read with a
 * fraction of mailparser's CPU: its header block is read here when it is plain ASCII with no
 * encoded word, else by mailparser alone, and its body is decoded in one pass instead of line by
 * line through mailparser's chain of streams. The result is what mailparser gives for the whole
 * message (received-mail.test.ts compares both); anything else (multipart, HTML, other charsets,
 * format=flowed, a Content-Disposition, unusual encodings) returns undefined, for mailparser.
 */
export async function parsePlainText(source: Buffer): Promise<ParsedMessage | undefined> {
  const bodyStart = bodyOffset(source)
  if (bodyStart < 0) return undefined
  const block = source.subarray(0, bodyStart)
  const headers = readAsciiHeaders(block) ?? await readHeadersWithMailparser(block)
  if (!headers) return undefined
  // RFC 2045 §6.1: identity encodings, quoted-printable or base64
  const body = source.subarray(bodyStart)
  let decoded: Buffer | undefined
  if (headers.encoding === 'quoted-printable') decoded = decodeQuotedPrintable(body)
  else if (headers.encoding === 'base64') decoded = decodeBase64(body)
  else if (['', '7bit', '8bit', 'binary'].includes(headers.encoding)) decoded = body
  if (!decoded) return undefined
  const text = withoutCrBeforeLf(decoded).toString('utf8')
  return { ...headers.fields, text: text || null, html: null, preview: previewOf(text), attachments: [] }
}

/**
 * The bytes with each CR that ends a line (CRLF) left out: what `.toString('utf8').replace(/\r?\n/g,
 * '\n')` gives once decoded (a CR or LF byte is never part of a UTF-8 sequence, and ends a broken
 * one as either does), done before decoding so the text is made once, as one flat string. The
 * replace allocated about twice the text again on the heap and left a string previewOf flattened
 * with one more copy: 118 against 28 KB of heap per 26 KB body, at the same CPU (a loop over the
 * bytes costs what the regular expression did; Buffer.indexOf and a copy per line cost more).
 */
export function withoutCrBeforeLf(body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(body.length)
  const end = body.length
  let written = 0
  for (let i = 0; i < end; i++) {
    const byte = body[i]
    if (byte !== 13 || body[i + 1] !== 10) out[written++] = byte
  }
  return out.subarray(0, written)
}

/** The header block through mailparser (it reads every header as it does for a whole message), when the body is plain text. */
async function readHeadersWithMailparser(block: Buffer): Promise<PlainHeaders | undefined> {
  let mail: ParsedMail
  try {
    mail = await simpleParser(block, PARSER_OPTIONS)
  } catch {
    return undefined
  }
  const lines = (key: string) => mail.headerLines.filter((h) => h.key === key)
  const contentType = lines('content-type')
  const encoding = lines('content-transfer-encoding')
  if (contentType.length > 1 || encoding.length > 1 || lines('content-disposition').length) return undefined
  if (contentType.length) {
    const type = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined
    const params = type?.params ?? {}
    if (type?.value?.toLowerCase().trim() !== 'text/plain' || Object.keys(params).some((k) => k !== 'charset')) return undefined
    if (params.charset !== undefined && !UTF8_CHARSETS.has(params.charset.toLowerCase().replace(/[^a-z0-9]+/g, ''))) return undefined
  }
  const { text: _text, html: _html, preview: _preview, attachments: _attachments, ...fields } = fromParsed(mail, null)
  return { fields, encoding: encoding.length ? headerValue(encoding[0].line).toLowerCase() : '' }
}

/** An unfolded header line's value (RFC 5322 §2.2.3), as mailparser reads it. */
const headerValue = (line: string) => /^\s*[^:]+:(.*)$/.exec(line.replace(/(?:\r?\n|\r)[ \t]*/g, ' ').trim())?.[1].trim() ?? ''

/** `text/plain`, optionally with a UTF-8 or US-ASCII charset: the Content-Type read here; any other goes to mailparser. */
const PLAIN_TYPE = /^text\/plain(?:\s*;\s*charset=("?)(utf-8|us-ascii|ascii)\1)?\s*;?$/i

/**
 * A header block of plain ASCII (RFC 5322 §2.2) without encoded words (RFC 2047) or IDNA domains,
 * read into the same fields mailparser gives: the first non-empty Subject, Message-ID and
 * In-Reply-To, the first From, every To/Cc/Bcc and References, the Date (unreadable: now, as
 * mailparser dates it). Undefined for anything else, which mailparser reads.
 */
export function readAsciiHeaders(block: Buffer): PlainHeaders | undefined {
  const raw = block.toString('latin1')
  if (/[^\t\r\n\x20-\x7e]|=\?|xn--/i.test(raw)) return undefined
  const lines: { key: string; value: string }[] = []
  let current = ''
  const flush = () => {
    if (!current) return true
    const colon = current.indexOf(':')
    if (colon <= 0) return false
    lines.push({ key: current.slice(0, colon).toLowerCase().trim(), value: headerValue(current) })
    return true
  }
  for (const line of raw.replace(/[\r\n]+$/, '').split(/\r?\n/)) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (!current) return undefined
      current += `\r\n${line}`
      continue
    }
    if (!flush()) return undefined
    current = line
  }
  if (!flush() || /^(from|post) /i.test(lines[0]?.key ?? '')) return undefined
  const all = (key: string) => lines.filter((l) => l.key === key).map((l) => l.value)
  const first = (key: string) => all(key).find((v) => v !== '')
  const types = all('content-type')
  const encodings = all('content-transfer-encoding')
  if (types.length > 1 || (types.length && !PLAIN_TYPE.test(types[0])) || all('content-disposition').length) return undefined
  if (encodings.length > 1 || (encodings.length && !/^(7bit|8bit|binary|quoted-printable|base64)$/i.test(encodings[0]))) return undefined
  const idFormat = (v: string) => (v && (v.startsWith('<') ? v : `<${v}`) + (v.endsWith('>') ? '' : '>'))
  const mailboxes = (key: string) => all(key).flatMap(mailboxList)
  const listed = (key: string) => mailboxes(key).map((a) => a.address).join(', ')
  const fromValue = all('from')[0]
  const from = fromValue === undefined ? undefined : mailboxList(fromValue)[0]
  const dateValue = all('date')[0]
  const date = dateValue === undefined ? null : new Date(dateValue)
  return {
    encoding: encodings.length ? encodings[0].toLowerCase() : '',
    fields: {
      messageId: messageIds(idFormat(first('message-id') ?? ''))[0] ?? null,
      inReplyTo: messageIds(idFormat(first('in-reply-to') ?? ''))[0] ?? null,
      referenceIds: messageIds(all('references').flatMap((v) => v.split(/\s+/).map(idFormat).filter(Boolean))),
      subject: first('subject') ?? '',
      fromAddress: from?.address ?? '',
      fromName: from?.name ?? '',
      toAddress: listed('to'),
      ccAddresses: listed('cc'),
      bccAddresses: listed('bcc'),
      replyTo: listed('reply-to'),
      date: date && Number.isNaN(date.getTime()) ? new Date() : date,
    },
  }
}

/** Address fields whose reading is kept: a mailbox's senders and recipients repeat from message to message. */
const ADDRESS_CACHE = 2000
const addressCache = new Map<string, readonly { address: string; name: string }[]>()

/** A To/Cc/Bcc/From value's mailboxes as mailparser reads them (groups flattened, names trimmed, no address: left out). */
function mailboxList(value: string): readonly { address: string; name: string }[] {
  let list = addressCache.get(value)
  if (!list) {
    list = Object.freeze(addresses({ value: trimNames(addressparser(value)) } as AddressObject).map((a) => Object.freeze(a)))
    // bounded: dropped whole when full, then filled again by the mail that follows
    if (addressCache.size >= ADDRESS_CACHE) addressCache.clear()
    addressCache.set(value, list)
  }
  return list
}

/** Display names trimmed, as mailparser leaves them (groups included). */
function trimNames<T extends { name?: string; group?: T[] }>(list: T[]): T[] {
  for (const a of list) {
    a.name = (a.name ?? '').trim()
    if (a.group) trimNames(a.group)
  }
  return list
}

function withoutTrailingBlanks(line: string): string {
  let end = line.length
  while (end > 0 && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0x09)) end--
  return end === line.length ? line : line.slice(0, end)
}

/**
 * RFC 2045 §6.8 base64, only in its plain form (whitespace between groups, padding only at the
 * end); anything else (several padded segments, stray characters) is left to mailparser's decoder.
 */
function decodeBase64(body: Buffer): Buffer | undefined {
  const clean = body.toString('latin1').replace(/[\r\n\t ]+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) return undefined
  return Buffer.from(clean, 'base64')
}

/**
 * RFC 2045 §6.7 quoted-printable as mailparser's decoder reads it: trailing whitespace of a line
 * dropped, soft line breaks ("=" at a line's end) removed, "=XX" as that byte, anything else kept.
 */
function decodeQuotedPrintable(body: Buffer): Buffer {
  // blanks before each CR, LF and the end cut by hand (what /[\t ]+$/gm cuts, without its quadratic
  // backtracking on a long run of blanks inside a line)
  const parts = body.toString('latin1').split(/([\r\n])/)
  for (let i = 0; i < parts.length; i += 2) parts[i] = withoutTrailingBlanks(parts[i])
  const text = parts.join('').replace(/=(?:\r?\n|$)/g, '')
  return Buffer.from(text.replace(/=([\da-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
}
