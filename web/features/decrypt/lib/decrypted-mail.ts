// A decrypted encrypted forward is a MIME message (workers/delivery/encrypted-payload.ts): a readable text
// part and the original as message/rfc822 (RFC 2046 §5.2.1). Parsed here in the browser with
// postal-mime, so the Decrypt page shows the original's headers, body and attachments instead of
// the MIME source. Both libraries load on first use, not with the page.
import type { Address, Attachment, Email } from 'postal-mime'
import { sanitizeMailHtml } from '../../../lib/mail-html.ts'

export interface MailAttachment {
  filename: string
  mimeType: string
  size: number
  blob: Blob
}

export interface DecryptedMail {
  headers: { label: string; value: string }[]
  subject: string
  text: string
  /** Sanitized HTML with every remote resource removed; undefined when the message has none. */
  html: string | undefined
  /** Remote images and styles removed from the HTML. */
  blockedRemote: number
  attachments: MailAttachment[]
}

// A header block at the very start that declares MIME (RFC 2045 §4, §5): anything else is text.
const MIME_HEAD = /^(?:[!-9;-~]+:[^\n]*\n(?:[ \t][^\n]*\n)*)*?(?:mime-version|content-type):/i

export function looksLikeMime(text: string): boolean {
  const head = text.replace(/\r\n/g, '\n').split('\n\n', 1)[0] + '\n'
  return MIME_HEAD.test(head)
}

function addressList(value: Address | Address[] | undefined): string {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return list
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((m) => (m.name ? `${m.name} <${m.address}>` : m.address))
    .join(', ')
}

function bytesOf(content: Attachment['content']): Uint8Array<ArrayBuffer> {
  if (typeof content === 'string') return new TextEncoder().encode(content) as Uint8Array<ArrayBuffer>
  return new Uint8Array(content instanceof ArrayBuffer ? content : content.slice().buffer as ArrayBuffer)
}

function attachmentOf(a: Attachment, fallbackName: string): MailAttachment {
  const bytes = bytesOf(a.content)
  return { filename: a.filename || fallbackName, mimeType: a.mimeType, size: bytes.byteLength, blob: new Blob([bytes], { type: a.mimeType }) }
}

function dataUrl(a: Attachment): string {
  const bytes = bytesOf(a.content)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return `data:${a.mimeType};base64,${btoa(binary)}`
}

async function parse(raw: string, forceRfc822Attachments: boolean): Promise<Email> {
  const { default: PostalMime } = await import('postal-mime')
  return PostalMime.parse(raw, { forceRfc822Attachments, attachmentEncoding: 'arraybuffer' })
}

/** Undefined when the text is not a MIME message or cannot be parsed: the page shows it as text. */
export async function parseDecryptedMail(text: string): Promise<DecryptedMail | undefined> {
  if (!looksLikeMime(text)) return undefined
  try {
    const outer = await parse(text, true)
    // Our container: the original travels as its message/rfc822 part; otherwise show the message itself.
    const originalPart = outer.attachments.find((a) => a.mimeType === 'message/rfc822')
    const original = originalPart ? await parse(new TextDecoder().decode(bytesOf(originalPart.content)), false) : outer
    const inline = new Map(
      original.attachments.filter((a) => a.contentId && a.mimeType.startsWith('image/')).map((a) => [a.contentId!.replace(/^<|>$/g, ''), dataUrl(a)]),
    )
    const sanitized = original.html ? await sanitizeMailHtml(original.html, { inline, showRemote: false }) : undefined
    const headers = [
      { label: 'From', value: addressList(original.from) },
      { label: 'To', value: addressList(original.to) },
      { label: 'Cc', value: addressList(original.cc) },
      { label: 'Date', value: original.date ? formatDate(original.date) : '' },
    ].filter((h) => h.value)
    const attachments = original.attachments.filter((a) => !(a.related && a.contentId && inline.has(a.contentId.replace(/^<|>$/g, '')))).map((a, i) => attachmentOf(a, `attachment-${i + 1}`))
    if (originalPart) attachments.push(attachmentOf(originalPart, 'original-message.eml'))
    return {
      headers,
      subject: original.subject ?? '',
      text: original.text?.trim() ?? '',
      html: sanitized?.html,
      blockedRemote: sanitized?.blockedRemote ?? 0,
      attachments,
    }
  } catch {
    return undefined
  }
}

function formatDate(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}
