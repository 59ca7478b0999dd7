import { describe, expect, it } from 'vitest'
import { SecretBox } from './secret-box.ts'

const key = 'k'.repeat(40)

describe('SecretBox', () => {
  it('round-trips and never stores the plaintext', () => {
    const box = new SecretBox(key, 'spool')
    const sealed = box.seal('Subject: hello\r\n\r\nbody', 'row-1')
    expect(sealed.includes(Buffer.from('hello'))).toBe(false)
    expect(box.openText(sealed, 'row-1')).toBe('Subject: hello\r\n\r\nbody')
  })

  it('refuses another row, another purpose, another key and a flipped bit', () => {
    const sealed = new SecretBox(key, 'spool').seal('secret', 'row-1')
    expect(() => new SecretBox(key, 'spool').open(sealed, 'row-2')).toThrow()
    expect(() => new SecretBox(key, 'imap').open(sealed, 'row-1')).toThrow()
    expect(() => new SecretBox('z'.repeat(40), 'spool').open(sealed, 'row-1')).toThrow()
    const flipped = Buffer.from(sealed)
    flipped[20] ^= 1
    expect(() => new SecretBox(key, 'spool').open(flipped, 'row-1')).toThrow()
  })
})

describe('SecretBox compression', () => {
  const text = 'Déjà vu in Zürich, a line of an ordinary mail body that repeats. '.repeat(200)

  it('seals compressible text compressed, opens it, and keeps what does not shrink as it is', () => {
    const box = new SecretBox(key, 'received-mail')
    const sealed = box.seal(text, 'row-1', { compress: true })
    expect(sealed[0]).toBe(2)
    expect(sealed.length).toBeLessThan(Buffer.byteLength(text) / 10)
    expect(box.openText(sealed, 'row-1')).toBe(text)
    const random = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 151 + 7) % 256))
    const kept = box.seal(random, 'row-2', { compress: true })
    expect(kept[0]).toBe(1)
    expect(box.open(kept, 'row-2').equals(random)).toBe(true)
    expect(box.openText(box.seal('', 'row-3', { compress: true }), 'row-3')).toBe('')
  })

  it('refuses a compressed box passed off as a plain one, or altered, or for another row', () => {
    const box = new SecretBox(key, 'received-mail')
    const sealed = box.seal(text, 'row-1', { compress: true })
    const relabelled = Buffer.from(sealed)
    relabelled[0] = 1
    expect(() => box.open(relabelled, 'row-1')).toThrow()
    const flipped = Buffer.from(sealed)
    flipped[30] ^= 1
    expect(() => box.open(flipped, 'row-1')).toThrow()
    expect(() => box.open(sealed, 'row-2')).toThrow()
    const plain = Buffer.from(box.seal(text, 'row-1'))
    plain[0] = 2
    expect(() => box.open(plain, 'row-1')).toThrow()
  })

  it('never repeats a nonce across many seals', () => {
    const box = new SecretBox(key, 'spool')
    const nonces = new Set(Array.from({ length: 2000 }, (_, i) => box.seal(`m${i}`, 'r').subarray(1, 13).toString('hex')))
    expect(nonces.size).toBe(2000)
  })
})
