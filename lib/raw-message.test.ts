import { describe, expect, it } from 'vitest'
import { decodeWords, encodePhrase, formatMailbox, parseMailboxes } from './mime-words.ts'
import { fieldValue, joinMessage, makeField, splitMessage } from './raw-message.ts'

describe('raw messages', () => {
  it('splits headers from a body it never changes, and joins them back byte for byte', () => {
    const body = Buffer.from('line one\r\n\r\n\xff\xfe 8-bit\nbare LF\rbare CR\r\n', 'latin1')
    const raw = Buffer.concat([Buffer.from('Subject: one\r\nX-Folded: a\r\n\tb\r\nFrom: a@b.example\r\n\r\n'), body])
    const { headers, body: split } = splitMessage(raw)
    expect(headers.map((h) => h.key)).toEqual(['subject', 'x-folded', 'from'])
    expect(fieldValue(headers[1])).toBe('a\tb')
    expect(split.equals(body)).toBe(true)
    expect(joinMessage(headers, split).equals(raw)).toBe(true)
  })

  it('handles bare-LF messages and messages without a body', () => {
    expect(splitMessage(Buffer.from('Subject: x\nFrom: a@b\n\nbody\n')).body.toString()).toBe('body\n')
    const { headers, body } = splitMessage(Buffer.from('Subject: only headers'))
    expect(headers).toHaveLength(1)
    expect(body.length).toBe(0)
  })

  it('folds long new fields', () => {
    const field = makeField('To', Array.from({ length: 10 }, (_, i) => `person${i}@example.com`).join(', '))
    expect(field.line.split('\r\n').every((l) => l.length <= 78)).toBe(true)
    expect(fieldValue(field)).toContain('person9@example.com')
  })
})

describe('encoded words', () => {
  it('decodes RFC 2047 words and survives garbage', () => {
    expect(decodeWords('=?utf-8?q?J=C3=B6rg_M?= =?UTF-8?B?w7xsbGVy?=')).toBe('Jörg Müller')
    expect(decodeWords('=?iso-8859-1?q?caf=E9?=')).toBe('café')
    expect(() => decodeWords('=?nope?B?####?= =?x?q?=ZZ?=')).not.toThrow()
  })

  it('encodes display names safely', () => {
    expect(encodePhrase('Ada "the" Countess')).toBe('"Ada \\"the\\" Countess"')
    expect(encodePhrase('Jörg\r\nBcc: evil@example.com')).toMatch(/^=\?UTF-8\?Q\?/)
    expect(formatMailbox('a@b.example', 'Ada <ada@x.example> via Veilmail')).toBe('"Ada <ada@x.example> via Veilmail" <a@b.example>')
    expect(parseMailboxes('=?utf-8?q?J=C3=B6rg?= <j@x.example>, group: a@y.example, b@z.example;')).toEqual([
      { name: 'Jörg', address: 'j@x.example' }, { name: '', address: 'a@y.example' }, { name: '', address: 'b@z.example' },
    ])
  })
})
