// One fetched message → what the list and the detail need (sender, recipients, subject, date,
// preview, text and HTML bodies, attachments), parsed by mailparser. Malformed mail never fails
// a sync: what can be read is kept, the rest falls back to the IMAP envelope.
import type { Readable } from 'node:stream'
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser'

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
  const full = text ?? ''
  // only the start is read: the window widens until it holds enough characters once collapsed
  for (let window = PREVIEW_CHARS * 4; ; window *= 4) {
    const preview = full.slice(0, window).replace(/\s+/g, ' ').trim()
    if (preview.length > PREVIEW_CHARS || window >= full.length) return preview.slice(0, PREVIEW_CHARS)
  }
}

/** Subject for the conversation rule: leading Re:/Fw:/Fwd: removed, case-insensitive. */
export function threadSubject(subject: string): string {
  let s = subject.trim()
  for (let previous = ''; previous !== s;) {
    previous = s
    s = s.replace(/^\s*(re|fw|fwd)\s*(\[\d+\])?\s*:\s*/i, '')
  }
  return s.toLowerCase()
}

/** A fetched message, or a large one as a stream (never held whole as one buffer). */
export async function parseMessage(source: Buffer | Readable): Promise<ParsedMessage> {
  let mail: ParsedMail
  try {
    mail = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true, keepCidLinks: true })
  } catch {
    // unreadable as MIME: a fetched message is kept as its raw text, a streamed one is gone by now
    const raw = Buffer.isBuffer(source) ? source.toString('latin1') : ''
    return {
      messageId: null, inReplyTo: null, referenceIds: [], subject: '', fromAddress: '', fromName: '', toAddress: '', ccAddresses: '',
      bccAddresses: '', date: null, text: raw, html: null, preview: previewOf(raw), attachments: [],
    }
  }
  const from = addresses(mail.from)[0]
  const text = mail.text ?? null
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
