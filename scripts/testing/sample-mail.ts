// Varied test messages for the webmail suites and the sync benchmark: plain text, HTML with a
// text alternative, attachments, 8-bit and encoded-word charsets, threads, and malformed mail.
import { randomBytes } from 'node:crypto'

export interface SampleMail {
  raw: Buffer
  kind: 'plain' | 'html' | 'attachment' | 'latin1' | 'utf8-words' | 'reply' | 'malformed' | 'no-headers'
  subject: string
  messageId: string
}

const CRLF = '\r\n'
const date = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString()

function filler(bytes: number): string {
  const words = ['privacy', 'alias', 'mailbox', 'forward', 'encrypted', 'webmail', 'sync', 'inbox', 'message', 'reply']
  let out = ''
  for (let i = 0; out.length < bytes; i++) out += words[(i * 7) % words.length] + (i % 12 === 11 ? CRLF : ' ')
  return out
}

/** The i-th message of a varied mailbox (deterministic by index); `bodyBytes` pads its text. */
export function sampleMail(i: number, bodyBytes = 600): SampleMail {
  const id = `<sample-${i}@sender.example>`
  const head = (subject: string, extra = '') =>
    `From: Sender ${i} <sender${i % 17}@sender.example>${CRLF}To: owner@veilmail.test${CRLF}Subject: ${subject}${CRLF}Date: ${date(i)}${CRLF}Message-ID: ${id}${CRLF}MIME-Version: 1.0${CRLF}${extra}`
  switch (i % 8) {
    case 0: {
      const subject = `Plain message ${i}`
      return { kind: 'plain', subject, messageId: id, raw: Buffer.from(`${head(subject)}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}Hello number ${i}.${CRLF}${filler(bodyBytes)}${CRLF}`) }
    }
    case 1: {
      const subject = `HTML newsletter ${i}`
      const b = `alt-${i}`
      return {
        kind: 'html', subject, messageId: id, raw: Buffer.from(`${head(subject)}Content-Type: multipart/alternative; boundary="${b}"${CRLF}${CRLF}` +
          `--${b}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}Text part ${i}. ${filler(bodyBytes)}${CRLF}` +
          `--${b}${CRLF}Content-Type: text/html; charset=utf-8${CRLF}${CRLF}<html><body><h1>Issue ${i}</h1><p>${filler(bodyBytes)}</p></body></html>${CRLF}--${b}--${CRLF}`),
      }
    }
    case 2: {
      const subject = `Invoice ${i} attached`
      const b = `mixed-${i}`
      const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048)]).toString('base64').replace(/.{76}/g, `$&${CRLF}`)
      return {
        kind: 'attachment', subject, messageId: id, raw: Buffer.from(`${head(subject)}Content-Type: multipart/mixed; boundary="${b}"${CRLF}${CRLF}` +
          `--${b}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}Your invoice ${i} is attached.${CRLF}` +
          `--${b}${CRLF}Content-Type: application/pdf; name="invoice-${i}.pdf"${CRLF}Content-Disposition: attachment; filename="invoice-${i}.pdf"${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${pdf}${CRLF}--${b}--${CRLF}`),
      }
    }
    case 3: {
      // 8-bit ISO-8859-1 body, encoded-word subject in the same charset
      const subject = `Café crème ${i}`
      return {
        kind: 'latin1', subject, messageId: id, raw: Buffer.concat([
          Buffer.from(`${head(`=?ISO-8859-1?Q?Caf=E9_cr=E8me_${i}?=`)}Content-Type: text/plain; charset=iso-8859-1${CRLF}Content-Transfer-Encoding: 8bit${CRLF}${CRLF}`),
          Buffer.from(`Déjà vu à Zürich ${i}.${CRLF}`, 'latin1'),
        ]),
      }
    }
    case 4: {
      const subject = `Привет, 世界 ${i}`
      return {
        kind: 'utf8-words', subject, messageId: id,
        raw: Buffer.from(`${head(`=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`)}Content-Type: text/plain; charset=utf-8${CRLF}Content-Transfer-Encoding: 8bit${CRLF}${CRLF}Здравствуйте ${i} 👋${CRLF}`),
      }
    }
    case 5: {
      // a reply to message i-5 (a plain one when i % 40 == 5): same conversation by In-Reply-To
      const parent = `<sample-${i - 5}@sender.example>`
      const subject = `Re: Plain message ${i - 5}`
      return {
        kind: 'reply', subject, messageId: id,
        raw: Buffer.from(`${head(subject, `In-Reply-To: ${parent}${CRLF}References: ${parent}${CRLF}`)}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}Replying to ${i - 5}.${CRLF}> quoted${CRLF}`),
      }
    }
    case 6: {
      // malformed: a multipart whose boundary never appears, a broken date, an unterminated encoded word
      const subject = `=?UTF-8?B?broken ${i}`
      return {
        kind: 'malformed', subject, messageId: id,
        raw: Buffer.from(`From: not an address${CRLF}Subject: ${subject}${CRLF}Date: yesterday-ish${CRLF}Message-ID: ${id}${CRLF}Content-Type: multipart/mixed; boundary="nowhere"${CRLF}${CRLF}just some text ${i} with no parts${CRLF}`),
      }
    }
    default: {
      return { kind: 'no-headers', subject: '', messageId: '', raw: Buffer.from(`${CRLF}A message without any header ${i}.${CRLF}`) }
    }
  }
}
