// One-time codes: HOTP (RFC 4226) and TOTP (RFC 6238) with the parameters every authenticator
// app reads from an otpauth:// URI by default (HMAC-SHA1, 6 digits, 30-second steps). The
// secret travels as Base32 (RFC 4648 §6) in that URI.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const TOTP_STEP_SECONDS = 30
export const TOTP_DIGITS = 6
/** RFC 4226 §4 asks for at least 128 bits and recommends 160: the length of an SHA-1 output. */
const SECRET_BYTES = 20

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Encode(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/** Base32 without padding, case and spaces ignored; undefined when a character is not Base32. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase()
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = BASE32.indexOf(char)
    if (index < 0) return undefined
    value = ((value << 5) | index) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

export const newTotpSecret = (): Buffer => randomBytes(SECRET_BYTES)

export type HotpAlgorithm = 'sha1' | 'sha256' | 'sha512'

/** RFC 4226 §5.3: HMAC over the 8-byte counter, dynamic truncation, modulo 10^digits. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS, algorithm: HotpAlgorithm = 'sha1'): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm, secret).update(message).digest()
  const offset = mac[mac.length - 1] & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** RFC 6238 §4.2: T = floor((now - T0) / X) with T0 = 0. */
export const totpStep = (unixMs: number) => Math.floor(unixMs / 1000 / TOTP_STEP_SECONDS)

export const totp = (secret: Uint8Array, unixMs: number, digits = TOTP_DIGITS, algorithm: HotpAlgorithm = 'sha1') =>
  hotp(secret, totpStep(unixMs), digits, algorithm)

/**
 * The time step whose code `code` is, within `drift` steps either side of `unixMs` (RFC 6238 §5.2:
 * one step back and forward covers clock drift and a code typed just as it changed), or undefined.
 * Every candidate is compared in constant time and all are compared, so timing tells nothing.
 */
export function matchTotp(secret: Uint8Array, code: string, unixMs: number, drift = 1): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined
  const now = totpStep(unixMs)
  let found: number | undefined
  for (let step = now - drift; step <= now + drift; step++) {
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code)) && found === undefined) found = step
  }
  return found
}

/** The URI authenticator apps read from the QR code (Google Authenticator's Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secret: Uint8Array): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const params = new URLSearchParams({ secret: base32Encode(secret), issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) })
  return `otpauth://totp/${label}?${params}`
}
