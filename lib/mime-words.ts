// Encoded words in header text (RFC 2047): decoding display names for the From rewrite and
// encoding new ones. Unknown charsets fall back to UTF-8 rather than failing.
import addressparser from 'nodemailer/lib/addressparser'
import { encodeWords } from 'nodemailer/lib/mime-funcs'

const WORD = /=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi

function decoder(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset.split('*')[0], { fatal: false })
  } catch {
    return new TextDecoder('utf-8')
  }
}

export function decodeWords(text: string): string {
  return text
    .replace(/(=\?[^?\s]+\?[bq]\?[^?\s]*\?=)\s+(?==\?)/gi, '$1') // RFC 2047 §6.2: space between words is dropped
    .replace(WORD, (_, charset: string, encoding: string, data: string) => {
      const bytes = encoding.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
      return decoder(charset).decode(bytes)
    })
}

/** A display name as a header phrase: quoted when plain ASCII, else encoded words. */
export function encodePhrase(name: string): string {
  const clean = name.replace(/[\r\n\t]+/g, ' ').replace(/\s+/g, ' ').trim()
  if (!clean) return ''
  if (/^[\x20-\x7e]*$/.test(clean)) return `"${clean.replace(/(["\\])/g, '\\$1')}"`
  return encodeWords(clean, 'Q', 52, true)
}

/** `Name <address>` for a header, name encoded as needed. */
export function formatMailbox(address: string, name?: string | null): string {
  const phrase = name ? encodePhrase(name) : ''
  return phrase ? `${phrase} <${address}>` : address
}

export interface Mailbox {
  name: string
  address: string
}

/** The mailboxes of an address field (groups flattened), names decoded; at most `limit`. */
export function parseMailboxes(value: string | undefined, limit = 100): Mailbox[] {
  if (!value) return []
  return addressparser(value, { flatten: true })
    .filter((m) => m.address && m.address.includes('@'))
    .slice(0, limit)
    .map((m) => ({ name: decodeWords(m.name ?? ''), address: m.address.trim() }))
}
