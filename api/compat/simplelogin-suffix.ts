// SimpleLogin's signed suffixes: alias/options hands out `suffix` and `signed_suffix`, and
// custom/new takes the signed one back, so a client cannot ask for a domain it was not offered.
// Ours: `<suffix>.<time>.<HMAC-SHA256 over user, suffix and time>`, valid for a day.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

const VALID_SECONDS = 24 * 60 * 60

const mac = (secretKey: string, userId: string, suffix: string, time: string) =>
  createHmac('sha256', Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'simplelogin-suffix', 32)))
    .update(`${userId}\n${suffix}\n${time}`).digest('base64url').slice(0, 27)

export function signSuffix(secretKey: string, userId: string, suffix: string, now = Date.now()): string {
  const time = Math.floor(now / 1000).toString(36)
  return `${suffix}.${time}.${mac(secretKey, userId, suffix, time)}`
}

/** The suffix, 'expired' when the signature is right but old, undefined when it is not ours. */
export function verifySuffix(secretKey: string, userId: string, signed: string, now = Date.now()): string | 'expired' | undefined {
  const parts = signed.split('.')
  if (parts.length < 3) return undefined
  const [time, given] = parts.slice(-2)
  const suffix = parts.slice(0, -2).join('.')
  const expected = Buffer.from(mac(secretKey, userId, suffix, time))
  if (Buffer.byteLength(given) !== expected.length || !timingSafeEqual(Buffer.from(given), expected)) return undefined
  return now / 1000 - parseInt(time, 36) > VALID_SECONDS ? 'expired' : suffix
}
