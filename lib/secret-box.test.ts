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
