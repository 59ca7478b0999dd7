// The plain-text reading of received-mail.ts against mailparser whole: the same result for every
// message it takes, and the messages it does not take left to mailparser.
import { describe, expect, it } from 'vitest'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { parseMessage, parsePlainText, parseWhole, previewOf, readAsciiHeaders, withoutCrBeforeLf, type ParsedMessage } from './received-mail.ts'
import { cleanParsedMessage } from './stored-text.ts'

const CRLF = '\r\n'
const head = `From: =?UTF-8?Q?Ren=C3=A9e?= <renee@sender.example>${CRLF}To: a@veilmail.test, "B, the second" <b@veilmail.test>${CRLF}Cc: Team: c@veilmail.test, d@veilmail.test;${CRLF}` +
  `Subject: =?UTF-8?B?${Buffer.from('Réunion 👋').toString('base64')}?=${CRLF}Date: Tue, 3 Mar 2026 10:00:00 +0100${CRLF}Message-ID: <m1@sender.example>${CRLF}` +
  `In-Reply-To: <p1@sender.example>${CRLF}References: <p0@sender.example>${CRLF} <p1@sender.example>${CRLF}`
/** Plain ASCII headers, read without mailparser: groups, quoted names, repeated and folded fields, an empty first Subject, a bare Message-ID. */
const asciiHead = `From: "Smith, Ann" <ann@sender.example>${CRLF}To: a@veilmail.test,${CRLF}\t"B, the second" <b@veilmail.test>${CRLF}To: Team: c@veilmail.test, d@veilmail.test;${CRLF}` +
  `Cc:  Carol  <carol@veilmail.test> , dave@veilmail.test${CRLF}Bcc: undisclosed-recipients:;${CRLF}Reply-To: "The List" <list@lists.example>,${CRLF} help@sender.example${CRLF}Subject:${CRLF}Subject:   Weekly   report ${CRLF}` +
  `Date: Tue, 3 Mar 2026 10:00:00 +0100${CRLF}Message-ID: m2@sender.example${CRLF}In-Reply-To: <p1@sender.example> (a comment)${CRLF}` +
  `References: <p0@sender.example>${CRLF} <p1@sender.example>${CRLF}References: p2@sender.example${CRLF}X-Mailer: test${CRLF}`
const words = 'Déjà vu in Zürich, 東京 and Москва. '.repeat(40)

/** Messages the plain-text reading takes. */
const taken: [string, Buffer][] = [
  ['ASCII headers, 8-bit UTF-8 body', Buffer.from(`${asciiHead}Content-Type: text/plain; charset="UTF-8"${CRLF}Content-Transfer-Encoding: 8bit${CRLF}${CRLF}${words}${CRLF}`)],
  ['ASCII headers, quoted-printable', Buffer.from(`${asciiHead}Content-Type: text/plain; charset=us-ascii${CRLF}Content-Transfer-Encoding: Quoted-Printable${CRLF}${CRLF}a=3Db=${CRLF}c   ${CRLF}`)],
  ['ASCII headers, an unreadable Date and no Content-Type', Buffer.from(`${asciiHead.replace('Tue, 3 Mar 2026 10:00:00 +0100', 'soon')}${CRLF}text${CRLF}`)],
  ['8-bit UTF-8', Buffer.from(`${head}Content-Type: text/plain; charset=utf-8${CRLF}Content-Transfer-Encoding: 8bit${CRLF}${CRLF}${words}${CRLF}second line${CRLF}`)],
  ['no Content-Type at all', Buffer.from(`${head}${CRLF}Just text.${CRLF}`)],
  ['US-ASCII, quoted charset, upper case', Buffer.from(`${head}Content-Type: TEXT/PLAIN; charset="US-ASCII"${CRLF}${CRLF}Plain ascii.${CRLF}`)],
  ['bare LF line ends', Buffer.from(`From: x@sender.example\nSubject: lf\nContent-Type: text/plain; charset=utf-8\n\nline one\nline two\n`)],
  ['quoted-printable with soft breaks, trailing blanks and a bad escape', Buffer.from(`${head}Content-Type: text/plain; charset=utf-8${CRLF}Content-Transfer-Encoding: quoted-printable${CRLF}${CRLF}` +
    `Caf=C3=A9 cr=C3=A8me, a long line that is wrapped=${CRLF} here and=20  ${CRLF}trailing blanks   ${CRLF}a =ZZ bad escape and =3D sign=\n`)],
  ['folded encoding header', Buffer.from(`${head}Content-Type: text/plain;${CRLF} charset=utf-8${CRLF}Content-Transfer-Encoding:${CRLF} Quoted-Printable${CRLF}${CRLF}x=3Dy${CRLF}`)],
  ['base64', Buffer.from(`${head}Content-Type: text/plain; charset=utf-8${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${Buffer.from(words).toString('base64').replace(/.{76}/g, `$&${CRLF}`)}${CRLF}`)],
  ['invalid UTF-8 bytes', Buffer.concat([Buffer.from(`${head}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}bad `), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(` end${CRLF}`)])],
  ['no line end after the text, 8-bit bytes under 7bit', Buffer.from(`${head}Content-Transfer-Encoding: 7bit${CRLF}${CRLF}naïve\0text`)],
  ['empty body', Buffer.from(`${head}Content-Type: text/plain${CRLF}${CRLF}`)],
  ['no header at all', Buffer.from(`${CRLF}A message without any header.${CRLF}`)],
  ['broken date and encoded word, no address', Buffer.from(`From: not an address${CRLF}Subject: =?UTF-8?B?broken${CRLF}Date: yesterday-ish${CRLF}${CRLF}text${CRLF}`)],
  ['long body for the preview', Buffer.from(`${head}${CRLF}${'   \t word\r\n\r\n'.repeat(500)}end${CRLF}`)],
  ...[0, 4, 5, 7].map((i): [string, Buffer] => [`sample mail ${i} (${sampleMail(i).kind})`, sampleMail(i, 3000).raw]),
]

/** Messages left to mailparser whole. */
const left: [string, Buffer][] = [
  ['multipart', sampleMail(1).raw],
  ['attachment', sampleMail(2).raw],
  ['ISO-8859-1', sampleMail(3).raw],
  ['malformed multipart', sampleMail(6).raw],
  ['HTML only', Buffer.from(`${head}Content-Type: text/html; charset=utf-8${CRLF}${CRLF}<p>Hello <b>there</b></p>${CRLF}`)],
  ['format=flowed', Buffer.from(`${head}Content-Type: text/plain; charset=utf-8; format=flowed${CRLF}${CRLF}soft ${CRLF}wrapped${CRLF}`)],
  ['a Content-Disposition', Buffer.from(`${head}Content-Type: text/plain${CRLF}Content-Disposition: attachment; filename="notes.txt"${CRLF}${CRLF}notes${CRLF}`)],
  ['two Content-Types', Buffer.from(`${head}Content-Type: text/plain${CRLF}Content-Type: text/html${CRLF}${CRLF}<b>x</b>${CRLF}`)],
  ['base64 in padded segments', Buffer.from(`${head}Content-Transfer-Encoding: base64${CRLF}${CRLF}YQ==${CRLF}Yg==${CRLF}`)],
  ['an encoding with a comment', Buffer.from(`${head}Content-Transfer-Encoding: 8bit (comment)${CRLF}${CRLF}x${CRLF}`)],
  ['header block only', Buffer.from(`${head}Content-Type: text/plain`)],
]

/** mailparser dates a message without a readable Date header at the time of parsing: that field is left out. */
const comparable = (parsed: ParsedMessage | undefined, raw: Buffer) =>
  parsed && (/^Date: [^\r\n]*\d{4} \d\d:\d\d/m.test(raw.toString('latin1')) ? parsed : { ...parsed, date: 'when parsed' })

describe('Reply-To', () => {
  it('is kept as its addresses by both readings, and is empty when the message names none', async () => {
    const ascii = taken[0][1]
    expect((await parsePlainText(ascii))?.replyTo).toBe('list@lists.example, help@sender.example')
    expect((await parseWhole(ascii)).replyTo).toBe('list@lists.example, help@sender.example')
    expect((await parseWhole(Buffer.from(`${head}Reply-To: =?UTF-8?Q?Ren=C3=A9e?= <renee.replies@sender.example>${CRLF}${CRLF}x${CRLF}`))).replyTo).toBe('renee.replies@sender.example')
    expect((await parseWhole(Buffer.from(`${head}${CRLF}x${CRLF}`))).replyTo).toBe('')
  })
})

describe('line ends of a plain body', () => {
  it('are what decoding and replacing CRLF gives, for broken UTF-8, lone and doubled CRs and any byte', () => {
    const asBefore = (b: Buffer) => b.toString('utf8').replace(/\r?\n/g, '\n')
    const bodies = [
      [0xe2, 0x0d, 0x0a, 0x41], [0xf0, 0x9f, 0x0d, 0x0a], [0xe2, 0x82, 0x0d], [0x0d, 0x0d, 0x0a, 0x0a, 0x0d], [0x0d], [0x0a], [],
      [...Buffer.from('Grüße\r\nzwei\rdrei\n\r\n')], [0xc3, 0x0d, 0x0a, 0xa9, 0x0d, 0x0a], [0xed, 0xa0, 0x80, 0x0d, 0x0a],
    ].map((bytes) => Buffer.from(bytes))
    // every pair and triple of the bytes that matter, and random bytes
    const parts = [0x0d, 0x0a, 0x41, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0x00]
    for (const a of parts) for (const b of parts) for (const c of parts) bodies.push(Buffer.from([a, b, c]))
    for (let i = 0; i < 200; i++) bodies.push(Buffer.from(Array.from({ length: 64 }, () => parts[Math.floor(Math.random() * parts.length)])))
    for (const body of bodies) expect(withoutCrBeforeLf(body).toString('utf8'), body.toString('hex')).toBe(asBefore(body))
  })
})

describe('reading plain-text mail without mailparser\'s body pass', () => {
  it.each(taken)('%s: the same result as mailparser whole', async (_, raw) => {
    const plain = await parsePlainText(raw)
    expect(plain).toBeDefined()
    expect(comparable(plain, raw)).toEqual(comparable(await parseWhole(raw), raw))
    // parseMessage is either reading, cleaned for storage (stored-text.test.ts)
    expect(comparable(await parseMessage(raw), raw)).toEqual(comparable(cleanParsedMessage(plain!), raw))
  })

  it('reads plain ASCII header blocks itself, and leaves encoded words and 8-bit headers to mailparser', () => {
    const block = (raw: Buffer) => raw.subarray(0, raw.indexOf('\r\n\r\n') + 4)
    expect(readAsciiHeaders(block(taken[0][1]))).toBeDefined()
    expect(readAsciiHeaders(block(sampleMail(0).raw))).toBeDefined()
    expect(readAsciiHeaders(block(taken[3][1]))).toBeUndefined() // encoded words
    expect(readAsciiHeaders(Buffer.from(`Subject: caf\xe9${CRLF}${CRLF}`, 'latin1'))).toBeUndefined()
    expect(readAsciiHeaders(Buffer.from(`From: x@y.example${CRLF}not a header${CRLF}${CRLF}`))).toBeUndefined()
  })

  it('reads a quoted-printable line of 300,000 blanks in linear time (a hostile message, not a hang)', async () => {
    const raw = Buffer.from(`From: x@sender.example${CRLF}Content-Transfer-Encoding: quoted-printable${CRLF}${CRLF}a${' '.repeat(300_000)}b   ${CRLF}c=41${CRLF}`)
    const parsed = await parsePlainText(raw)
    expect(parsed?.text).toBe(`a${' '.repeat(300_000)}b\nc=41\n`.replace('c=41', 'cA'))
  })

  it.each(left)('%s: left to mailparser', async (_, raw) => {
    expect(await parsePlainText(raw)).toBeUndefined()
    expect(comparable(await parseMessage(raw), raw)).toEqual(comparable(cleanParsedMessage(await parseWhole(raw)), raw))
  })
})

describe('the preview', () => {
  /** What the preview is defined as: whitespace runs collapsed, trimmed, the first 150 UTF-16 units. */
  const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 150)
  /** Every character JavaScript counts as whitespace, and near misses (U+0085, U+180E, U+200B are not). */
  const spaces = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff']
  const others = ['a', 'Zz', '\u0085', '\u180e', '\u200b', '😀', 'é', '東']

  it('is the collapsed start of the text for hostile whitespace, a surrogate pair cut at 150, and long runs', () => {
    const texts = [
      '', '   ', `${'\u3000'.repeat(5000)}x`, `${'a'.repeat(149)}😀tail`, `${'a '.repeat(74)}a😀`, `${' \t\r\n'.repeat(10_000)}end`,
      `${'word '.repeat(29)}wor${'\u2028'.repeat(700)}d`, `${'x'.repeat(100_000)}`, 'a\u0085b\u180ec\u200bd',
    ]
    // deterministic pseudo-random texts drawn mostly from whitespace
    let seed = 1
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648)
    for (let n = 0; n < 3000; n++) {
      let text = ''
      for (let i = next() % 500; i > 0; i--) text += next() % 3 ? spaces[next() % spaces.length] : others[next() % others.length]
      texts.push(text)
    }
    for (let c = 0; c < 0x10000; c++) texts.push(`a${String.fromCharCode(c)}b`)
    const differing = texts.filter((t) => previewOf(t) !== collapsed(t))
    expect(differing.map((t) => JSON.stringify(t.slice(0, 60)))).toEqual([])
    expect(previewOf(null)).toBe('')
  })
})

describe('address fields read again from the cache', () => {
  it('gives mailparser\'s reading for repeated values, after the cache filled and was dropped, and the results cannot be changed by a caller', async () => {
    const raw = (i: number) => Buffer.from(`From: "Smith, Ann ${i}" <ann${i}@sender.example>${CRLF}To: Team: c@veilmail.test, "D" <d@veilmail.test>;, e@veilmail.test${CRLF}` +
      `Cc: ${i % 2 ? 'x@veilmail.test' : 'Y <y@veilmail.test>'}${CRLF}Subject: s${CRLF}Date: Tue, 3 Mar 2026 10:00:00 +0100${CRLF}${CRLF}text ${i}${CRLF}`)
    const checked = [0, 1, 2, 1999, 2000, 2001, 4500]
    const first = await parsePlainText(raw(0))
    for (let i = 0; i < 4600; i++) {
      const plain = await parsePlainText(raw(i))
      if (checked.includes(i)) expect(plain).toEqual(await parseWhole(raw(i)))
    }
    expect(await parsePlainText(raw(0))).toEqual(first)
    expect(first).toMatchObject({ fromName: 'Smith, Ann 0', fromAddress: 'ann0@sender.example', toAddress: 'c@veilmail.test, d@veilmail.test, e@veilmail.test', ccAddresses: 'y@veilmail.test' })
  })
})
