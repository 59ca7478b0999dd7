// What Veilmail encrypts to an owner's age key, for an encrypted forward and for a kept
// undelivered message (docs/decisions/0003-encrypted-forwarding.md): one MIME message
// (multipart/mixed, RFC 2046 §5.1.3) whose first part is a readable text copy and whose second
// is the forwarded message exactly as it would have left in the clear (message/rfc822, RFC 2046
// §5.2.1), HTML and attachments included. Decrypted, it reads as text on the Decrypt page; saved
// as a .eml file it opens in any mail program, and replying to it goes through reverse aliases.
import { randomBytes } from 'node:crypto'
import { encryptToRecipient } from '../../lib/age.ts'
import { readableMessage } from './readable-message.ts'
import { makeField, splitMessage, type HeaderField } from '../../lib/raw-message.ts'

/** The forwarded message's fields the container repeats, so a mail program shows who, when and what. */
const SHOWN = new Set(['from', 'reply-to', 'to', 'cc', 'date', 'subject', 'message-id'])
const MAX_LINE = 998 // RFC 5322 §2.1.1

/** 8bit text keeps lines under 998 octets: longer ones are broken (the attached original stays intact). */
function shortLines(text: string): string {
  // 240 code points are at most 960 octets of UTF-8
  return text.split(/\r?\n/).flatMap((line) => line.match(/.{1,240}/gu) ?? ['']).join('\r\n')
}

/** 7bit, 8bit or binary (RFC 2045 §2.7–2.9) for a message/rfc822 part, which may not be encoded. */
function transferEncoding(message: Buffer): string {
  let lineLength = 0
  let eightBit = false
  for (const byte of message) {
    if (byte === 0x0a) lineLength = 0
    else if (++lineLength > MAX_LINE) return 'binary'
    if (byte >= 0x80 || byte === 0) eightBit = true
  }
  return eightBit ? '8bit' : '7bit'
}

export async function buildEncryptedPayload(original: Buffer, forwarded: Buffer): Promise<Buffer> {
  const boundary = `veilmail-${randomBytes(12).toString('hex')}`
  const shown: HeaderField[] = splitMessage(forwarded).headers.filter((h) => SHOWN.has(h.key))
  // header text is held as latin1, so 8-bit header bytes go out unchanged
  const head = [...shown.map((h) => h.line), 'MIME-Version: 1.0', makeField('Content-Type', `multipart/mixed; boundary="${boundary}"`).line, '', ''].join('\r\n')
  const readable = [
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    shortLines(await readableMessage(original)),
    '',
    `--${boundary}`,
    'Content-Type: message/rfc822',
    'Content-Disposition: attachment; filename="original-message.eml"',
    `Content-Transfer-Encoding: ${transferEncoding(forwarded)}`,
    '',
    '',
  ].join('\r\n')
  const tail = `\r\n--${boundary}--\r\n`
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(readable, 'utf8'), forwarded, Buffer.from(tail, 'latin1')])
}

/** The payload, age-encrypted to `recipient` and armored (what the owner decrypts). */
export async function encryptPayload(original: Buffer, forwarded: Buffer, recipient: string): Promise<string> {
  return encryptToRecipient(await buildEncryptedPayload(original, forwarded), recipient)
}
