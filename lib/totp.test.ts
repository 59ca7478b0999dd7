import { randomBytes } from 'node:crypto'
import * as OTPAuth from 'otpauth'
import { describe, expect, it } from 'vitest'
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totp, totpStep } from './totp.ts'

// RFC 6238 Appendix B: the seeds are ASCII "1234567890" repeated to the hash's block of key.
const seed = (length: number) => Buffer.from('1234567890'.repeat(7).slice(0, length))
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
]

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('matches the RFC 6238 test vectors at %i s', (seconds, sha1, sha256, sha512) => {
    expect(totp(seed(20), seconds * 1000, 8, 'sha1')).toBe(sha1)
    expect(totp(seed(32), seconds * 1000, 8, 'sha256')).toBe(sha256)
    expect(totp(seed(64), seconds * 1000, 8, 'sha512')).toBe(sha512)
  })

  it('matches the RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']
    expect(expected.map((_, counter) => hotp(seed(20), counter))).toEqual(expected)
  })

  it('agrees with an independent implementation (otpauth) on random secrets and times, through the URI it reads', () => {
    for (let i = 0; i < 200; i++) {
      const secret = newTotpSecret()
      const at = Math.floor(Math.random() * 4e12)
      const parsed = OTPAuth.URI.parse(otpauthUri('Veilmail', `user${i}@example.com`, secret))
      expect(parsed).toBeInstanceOf(OTPAuth.TOTP)
      expect(parsed.issuer).toBe('Veilmail')
      expect(parsed.label).toBe(`user${i}@example.com`)
      expect(totp(secret, at)).toBe(parsed.generate({ timestamp: at }))
    }
  })

  it('Base32 round-trips and agrees with otpauth', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = randomBytes(length)
      const text = base32Encode(bytes)
      expect(text).toBe(new OTPAuth.Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + length) }).base32)
      expect(base32Decode(text)).toEqual(bytes)
      expect(base32Decode(text.toLowerCase().replace(/(.{4})/g, '$1 '))).toEqual(bytes)
    }
    expect(base32Decode('ABC1')).toBeUndefined()
  })

  it('accepts one step of drift either way and refuses two', () => {
    const secret = newTotpSecret()
    const now = 1_800_000_000_000
    const step = totpStep(now)
    const at = (offset: number) => totp(secret, now + offset * 30_000)
    expect(matchTotp(secret, at(0), now)).toBe(step)
    expect(matchTotp(secret, at(-1), now)).toBe(step - 1)
    expect(matchTotp(secret, at(1), now)).toBe(step + 1)
    for (const offset of [-2, 2]) {
      const code = at(offset)
      // a collision with a code inside the window is possible (1 in 10^6 per step): skip then
      if ([-1, 0, 1].some((o) => at(o) === code)) continue
      expect(matchTotp(secret, code, now)).toBeUndefined()
    }
  })

  it('refuses anything that is not six digits', () => {
    const secret = newTotpSecret()
    const now = Date.now()
    const code = totp(secret, now)
    for (const bad of ['', `${code} `, ` ${code}`, `${code}0`, code.slice(1), '12345a', '１２３４５６', `${code}\n`, '0x1234', '-12345']) {
      expect(matchTotp(secret, bad, now)).toBeUndefined()
    }
  })
})
