// The readable half of what we encrypt to an owner's key: the message as plain text, so the
// Decrypt page and the inbox widget (which show decrypted text as it is) show something a person
// reads: who wrote, when, the subject, the text (or the HTML turned into text) and the
// attachments by name. The complete message travels beside it (encrypted-payload.ts).
import { simpleParser, type AddressObject } from 'mailparser'

const PARSE = { skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: 10 * 1024 * 1024 }

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return list.map((a) => a.text).filter(Boolean).join(', ')
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * mailparser turns HTML into text (html-to-text) only when it is the top-level body; an HTML-only
 * part deeper in a multipart message is handed to it that way.
 */
async function htmlAsText(html: string): Promise<string> {
  const head = Buffer.from('Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n')
  return (await simpleParser(Buffer.concat([head, Buffer.from(html, 'utf8')]), PARSE)).text ?? ''
}

/** Never throws: a message mailparser cannot read still goes out (its original is attached). */
export async function readableMessage(raw: Buffer): Promise<string> {
  try {
    return await render(raw)
  } catch {
    return '(Veilmail could not show this message as text. The complete original is attached below.)'
  }
}

async function render(raw: Buffer): Promise<string> {
  const mail = await simpleParser(raw, PARSE)
  const fields: [string, string][] = [
    ['From', addressText(mail.from)], ['To', addressText(mail.to)], ['Cc', addressText(mail.cc)],
    ['Date', mail.date ? mail.date.toUTCString() : ''], ['Subject', mail.subject ?? ''],
  ]
  const lines = fields.filter(([, value]) => value).map(([name, value]) => `${name}: ${value.replace(/\s+/g, ' ')}`)
  if (mail.attachments.length) {
    lines.push('Attachments:')
    for (const a of mail.attachments) {
      lines.push(`  - ${a.filename || 'unnamed'} (${a.contentType}, ${sizeText(a.size)}${a.related ? ', inline' : ''})`)
    }
  }
  let text = mail.text?.trim() ?? ''
  if (!text && typeof mail.html === 'string') text = (await htmlAsText(mail.html)).trim()
  lines.push('', text || '(This message has no text.)')
  return lines.join('\n')
}
