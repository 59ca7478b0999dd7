// Reverse alias addresses: `re+<32 base32 characters>@<alias domain>`, 160 random bits. The
// "+" can not appear in an alias name (shared/alias-schemas.ts), so the two never collide.
import { randomBytes } from 'node:crypto'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'
const PREFIX = 're+'

export function newReverseAliasLocalPart(): string {
  const bytes = randomBytes(20)
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return PREFIX + out
}

export function isReverseAliasLocalPart(localPart: string): boolean {
  return /^re\+[a-z2-7]{32}$/i.test(localPart)
}
