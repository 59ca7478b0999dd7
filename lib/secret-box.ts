// Secrets at rest (spooled mail, IMAP credentials, SMTP passwords, OAuth tokens): AES-256-GCM
// under a key derived from SECRET_KEY with HKDF, one derived key per purpose. Associated data
// binds a ciphertext to its row (an id), so a ciphertext copied to another row fails to open.
// Format: version byte (1) | 12-byte nonce | ciphertext | 16-byte tag.
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto'

const VERSION = 1
const VERSION_BYTE = Buffer.from([VERSION])

// Random 96-bit nonces (NIST SP 800-38D §8.2.2), cut from a pool the CSPRNG fills 4 KiB at a time:
// a call into OpenSSL per seal was a visible part of the MX's CPU per message (two seals each).
const NONCE_BYTES = 12
let pool = Buffer.alloc(0)
let used = 0
function nonce(): Buffer {
  if (used + NONCE_BYTES > pool.length) {
    pool = randomBytes(NONCE_BYTES * 341)
    used = 0
  }
  // a view of a pool that is never refilled in place: each nonce is used once
  return pool.subarray(used, (used += NONCE_BYTES))
}

export class SecretBox {
  // A KeyObject, not bytes: Node would otherwise make one from the bytes on every seal and open.
  readonly #key: KeyObject

  constructor(secretKey: string, purpose: string) {
    this.#key = createSecretKey(Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', `secret-box:${purpose}`, 32)))
  }

  seal(plaintext: Uint8Array | string, associatedData = ''): Buffer {
    const iv = nonce()
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv)
    cipher.setAAD(Buffer.from(associatedData, 'utf8'))
    const body = cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext)
    const last = cipher.final()
    return Buffer.concat([VERSION_BYTE, iv, body, last, cipher.getAuthTag()])
  }

  /** Throws when the ciphertext was altered, belongs to another row, or another key sealed it. */
  open(sealed: Uint8Array, associatedData = ''): Buffer {
    const box = Buffer.from(sealed)
    if (box.length < 29 || box[0] !== VERSION) throw new Error('not a sealed secret')
    const decipher = createDecipheriv('aes-256-gcm', this.#key, box.subarray(1, 13))
    decipher.setAAD(Buffer.from(associatedData, 'utf8'))
    decipher.setAuthTag(box.subarray(box.length - 16))
    return Buffer.concat([decipher.update(box.subarray(13, box.length - 16)), decipher.final()])
  }

  openText(sealed: Uint8Array, associatedData = ''): string {
    return this.open(sealed, associatedData).toString('utf8')
  }
}
