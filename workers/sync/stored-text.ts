// What a parsed message may put in the database and on screen. Anyone can mail a user's mailbox,
// and an IMAP server can send any bytes: a NUL (U+0000) in a subject, a display name or a file
// name is refused by Postgres' text type and would abort the whole batch it is stored with; a
// lone surrogate makes the attachment's Content-Disposition (encodeURIComponent) throw; a value of
// kilobytes breaks the btree indexes on message_id, in_reply_to and thread_subject (an index row
// holds at most 2,704 bytes). Each field is cleaned the way a mail client shows it: control
// characters out (line breaks and tabs as a space), lone surrogates as U+FFFD, bounded lengths,
// Message-IDs that cannot be real dropped.
import type { ParsedAttachment, ParsedMessage } from './received-mail.ts'

/** Longest kept, in UTF-16 code units (a line of RFC 5322 §2.1.1 is at most 998 characters). */
const MAX_SUBJECT = 998
const MAX_NAME = 256
/** RFC 5321 §4.5.3.1: a path of at most 256 octets; a display list keeps a few hundred of them. */
const MAX_ADDRESS = 320
const MAX_ADDRESS_LIST = 32_000
const MAX_FILENAME = 255
/** A Message-ID longer than this is no real one; at 4 bytes a character it still fits an index row. */
const MAX_MESSAGE_ID = 500
/** The conversation key is indexed: 250 characters are at most 1,000 bytes. */
export const MAX_THREAD_SUBJECT = 250

// C0 controls, DEL and C1 controls (Unicode Cc); tab, CR and LF read as a space on one line
const LINE_BREAKS = /[\t\r\n]+/g
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// bidirectional embeddings, overrides and isolates: in a file name they hide its real extension
// ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf")
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g
// a surrogate without its other half (String.prototype.toWellFormed, ES2024, in a pattern)
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const wellFormed = (s: string) => s.replace(LONE_SURROGATE, '\ufffd')

/** One line of text as shown in the list and the detail: no control characters, well-formed, at most `max` code units. */
export function cleanLine(value: string, max: number): string {
  let s = wellFormed(value)
  // a control between two spaces leaves one space, as the text read without it
  if (ANY_CONTROL.test(s)) s = s.replace(LINE_BREAKS, ' ').replace(CONTROLS, '').replace(/ {2,}/g, ' ').trim()
  return truncate(s, max)
}

/** True when the value holds nothing cleanLine would change but its length: no control character, no lone surrogate. */
export const isCleanLine = (value: string) => !ANY_CONTROL.test(value) && wellFormed(value) === value

/** A body (text or HTML): kept as it is but for NUL and lone surrogates, which no display and no text type holds (shown as U+FFFD). */
export function cleanBody(value: string): string {
  const s = wellFormed(value)
  return s.includes('\0') ? s.replaceAll('\0', '\ufffd') : s
}

/** Cut at `max` code units, never inside a surrogate pair. */
function truncate(s: string, max: number): string {
  if (s.length <= max) return s
  const end = s.charCodeAt(max - 1) >= 0xd800 && s.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max
  return s.slice(0, end)
}

/** A Message-ID kept only as a real one can be: `<…>` of printable characters, not too long. */
function cleanMessageId(id: string | null): string | null {
  if (id === null || id.length > MAX_MESSAGE_ID || ANY_CONTROL.test(id) || wellFormed(id) !== id) return null
  return id
}

/** A comma-separated list of addresses, cut at the last whole address that fits. */
function cleanAddressList(list: string): string {
  const s = cleanLine(list, Number.MAX_SAFE_INTEGER)
  if (s.length <= MAX_ADDRESS_LIST) return s
  const cut = s.lastIndexOf(', ', MAX_ADDRESS_LIST)
  return cut > 0 ? s.slice(0, cut) : truncate(s, MAX_ADDRESS_LIST)
}

/** RFC 2045 §5.1 type/subtype; anything else is served as bytes. */
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/i

function cleanAttachment(a: ParsedAttachment): ParsedAttachment {
  // no path: a name is only a name, whatever a downloading program does with it
  const filename = cleanLine(a.filename.replace(BIDI_CONTROLS, '').replace(/[/\\]/g, '_'), MAX_FILENAME)
  return {
    ...a,
    filename: filename || 'attachment',
    contentType: CONTENT_TYPE.test(a.contentType) ? a.contentType.toLowerCase() : 'application/octet-stream',
    contentId: a.contentId === null ? null : cleanLine(a.contentId, MAX_MESSAGE_ID) || null,
  }
}

/** Every field of a parsed message as it may be stored and shown. */
export function cleanParsedMessage(m: ParsedMessage): ParsedMessage {
  return {
    messageId: cleanMessageId(m.messageId),
    inReplyTo: cleanMessageId(m.inReplyTo),
    referenceIds: m.referenceIds.map(cleanMessageId).filter((id) => id !== null),
    subject: cleanLine(m.subject, MAX_SUBJECT),
    fromAddress: cleanLine(m.fromAddress, MAX_ADDRESS),
    fromName: cleanLine(m.fromName, MAX_NAME),
    toAddress: cleanAddressList(m.toAddress),
    ccAddresses: cleanAddressList(m.ccAddresses),
    bccAddresses: cleanAddressList(m.bccAddresses),
    replyTo: cleanAddressList(m.replyTo ?? ''),
    // Postgres' timestamptz ends at year 294,276 and starts at 4713 BC; a Date goes further both ways
    date: m.date && m.date.getUTCFullYear() >= 1 && m.date.getUTCFullYear() <= 9999 ? m.date : null,
    text: m.text === null ? null : cleanBody(m.text),
    html: m.html === null ? null : cleanBody(m.html),
    preview: cleanLine(m.preview, m.preview.length),
    attachments: m.attachments.map(cleanAttachment),
  }
}
