// API keys for programs: `vm_` and 44 random base62 characters (44 · log2 62 ≈ 262 bits). Only the
// SHA-256 of the secret part is stored: a key is already full-entropy, so a slow hash adds
// nothing. The `vm_` label makes a leaked key recognisable (secret scanners); the secret alone is
// accepted too, because the addy.io extension takes only letters and digits (docs/decisions).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const API_KEY_LABEL = 'vm_'
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const SECRET_LENGTH = 44
const LOOKUP_LENGTH = 8
const SECRET_RE = /^[A-Za-z0-9]{44}$/

export interface ApiKeyParts {
  /** the secret's first characters: finds the stored row, and is shown in the list */
  lookup: string
  hash: Buffer
}

/** A new key (shown once) and what is stored of it. */
export function generateApiKey(): ApiKeyParts & { key: string; prefix: string } {
  let secret = ''
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 · 62: bytes above it are dropped so every character is equally likely
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62]
    }
  }
  const parts = secretParts(secret)
  return { key: API_KEY_LABEL + secret, prefix: API_KEY_LABEL + parts.lookup, ...parts }
}

/** What a presented key is looked up and compared by; undefined when it cannot be a key. */
export function parseApiKey(presented: string | undefined): ApiKeyParts | undefined {
  if (!presented) return undefined
  const value = presented.trim()
  const secret = value.startsWith(API_KEY_LABEL) ? value.slice(API_KEY_LABEL.length) : value
  return SECRET_RE.test(secret) ? secretParts(secret) : undefined
}

export const apiKeyPrefix = (lookup: string) => API_KEY_LABEL + lookup

/** Constant-time comparison of two stored-form hashes. */
export function sameKeyHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

function secretParts(secret: string): ApiKeyParts {
  return { lookup: secret.slice(0, LOOKUP_LENGTH), hash: createHash('sha256').update(secret).digest() }
}
