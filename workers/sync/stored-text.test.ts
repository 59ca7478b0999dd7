// What anyone can put in a mail, read as the sync stores it: every field a mail or a server gives
// is something Postgres holds and the inbox shows, whatever bytes came.
import { describe, expect, it } from 'vitest'
import { parseMessage } from './received-mail.ts'
import { cleanLine, MAX_THREAD_SUBJECT } from './stored-text.ts'
import { threadSubject } from './received-mail.ts'

const CRLF = '\r\n'
const qp = (s: string) => `=?UTF-8?Q?${s}?=`
const b64 = (s: string) => `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=`
/** Holds no character Postgres' text type refuses, and nothing the inbox could not show on one line. */
const storable = (s: string) => !/[\u0000-\u001f\u007f-\u009f]/.test(s) && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)

const mail = (headers: string, body = 'body') => Buffer.from(`${headers}${CRLF}Date: Tue, 3 Mar 2026 10:00:00 +0100${CRLF}${CRLF}${body}${CRLF}`)

describe('a message as the sync stores it', () => {
  it.each([
    ['a NUL in a Q-encoded subject', `Subject: ${qp('hello=00world')}`, 'helloworld'],
    ['a NUL in a B-encoded subject', `Subject: ${b64('hello\0world')}`, 'helloworld'],
    ['control characters and a line break in the subject', `Subject: ${qp('a=01b=0D=0Ac=1Bd=7F')}`, 'ab cd'],
    ['C1 controls', `Subject: ${b64('a\u0085b\u009bc')}`, 'abc'],
    ['a lone surrogate in the subject (an ill-formed UTF-16 encoded word)', `Subject: =?UTF-16BE?B?${Buffer.from([0xd8, 0x3d, 0x00, 0x61]).toString('base64')}?=`, '\ufffda'],
  ])('%s', async (_, header, subject) => {
    const parsed = await parseMessage(mail(`From: a@sender.example${CRLF}${header}`))
    expect(parsed.subject).toBe(subject)
    expect(storable(parsed.subject)).toBe(true)
  })

  it('cleans the From display name, the recipients and the Message-IDs', async () => {
    const parsed = await parseMessage(mail(
      `From: ${qp('Eve=00Null')} <eve@sender.example>${CRLF}To: ${b64('Bob\0')} <bob@veilmail.test>${CRLF}Subject: x${CRLF}` +
      `Message-ID: <${'a'.repeat(600)}@sender.example>${CRLF}In-Reply-To: <ok@sender.example>${CRLF}References: <${'r'.repeat(3000)}@x> <ok@sender.example>`,
    ))
    expect(parsed.fromName).toBe('EveNull')
    expect(parsed.fromAddress).toBe('eve@sender.example')
    expect(parsed.toAddress).toBe('bob@veilmail.test')
    // too long to be a real id, and too long for the index on message_id: dropped, the others kept
    expect(parsed.messageId).toBeNull()
    expect(parsed.inReplyTo).toBe('<ok@sender.example>')
    expect(parsed.referenceIds).toEqual(['<ok@sender.example>'])
  })

  it('cleans attachment names and types: no NUL, no path, no bidirectional override, a type a header can carry', async () => {
    const boundary = 'b0undary'
    const part = (disposition: string, type = 'application/pdf') =>
      `--${boundary}${CRLF}Content-Type: ${type}${CRLF}Content-Disposition: attachment; ${disposition}${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${Buffer.from('data').toString('base64')}${CRLF}`
    const raw = Buffer.from(`From: a@sender.example${CRLF}Subject: files${CRLF}MIME-Version: 1.0${CRLF}Content-Type: multipart/mixed; boundary="${boundary}"${CRLF}${CRLF}` +
      part(`filename="${qp('in=00voice.pdf')}"`) +
      part(`filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`) +
      part(`filename*=UTF-8''invoice%E2%80%AEfdp.exe`) +
      part('filename="x.bin"', 'text/html\u000b; charset=x') +
      `--${boundary}--${CRLF}`)
    const parsed = await parseMessage(raw)
    const names = parsed.attachments.map((a) => a.filename)
    expect(names).toEqual(['invoice.pdf', '.._.._etc_passwd', 'invoicefdp.exe', 'x.bin'])
    for (const a of parsed.attachments) {
      expect(storable(a.filename)).toBe(true)
      expect(a.contentType).toMatch(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/)
    }
  })

  it('keeps bodies whole but for NUL, shown as U+FFFD', async () => {
    const parsed = await parseMessage(mail('From: a@sender.example\r\nSubject: body\r\nContent-Type: text/plain; charset=utf-8', 'one\0two\ttabbed'))
    expect(parsed.text).toBe('one\ufffdtwo\ttabbed\n')
    expect(storable(parsed.preview)).toBe(true)
  })

  it('bounds every indexed value: a subject of kilobytes keeps a conversation key an index row holds', async () => {
    const long = '東'.repeat(5000)
    const parsed = await parseMessage(mail(`From: a@sender.example${CRLF}Subject: ${b64(long)}`))
    expect(parsed.subject.length).toBe(998)
    const key = threadSubject(parsed.subject)
    expect(key.length).toBe(MAX_THREAD_SUBJECT)
    expect(Buffer.byteLength(key)).toBeLessThan(2704)
  })

  it('never cuts a surrogate pair in two', () => {
    expect(cleanLine('a😀', 2)).toBe('a')
    expect(cleanLine('😀😀', 3)).toBe('😀')
  })

  it('drops a date Postgres cannot hold', async () => {
    const parsed = await parseMessage(Buffer.from(`From: a@sender.example${CRLF}Subject: old${CRLF}Date: Tue, 3 Mar 275000 10:00:00 +0100${CRLF}${CRLF}x${CRLF}`))
    expect(parsed.date === null || parsed.date.getUTCFullYear() <= 9999).toBe(true)
  })
})
