// Secrets at rest (spooled mail, IMAP credentials, SMTP passwords, OAuth tokens, synced mail):
// AES-256-GCM under a key derived from SECRET_KEY with HKDF, one derived key per purpose.
// Associated data binds a ciphertext to its row (an id), so a ciphertext copied to another row
// fails to open.
// Format: version byte | 12-byte nonce | ciphertext | 16-byte tag. Version 1 seals the plaintext
// as it is; version 2 seals it compressed with zstd (RFC 8878) and authenticates the version byte
// with the associated data, so a version 1 box cannot be passed off as a version 2 one.
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomFillSync, type KeyObject } from 'node:crypto'
import { zstdCompress, zstdDecompress } from './zstd-context.ts'

const PLAIN = 1
const COMPRESSED = 2
/** Nonces are cut from a pool of random bytes filled at once: one RNG call per 340 seals, not one each. */
const NONCE_POOL = 12 * 340

export interface SealOptions {
  /** compress before sealing (mail bodies: text that shrinks several times); kept only when it shrinks */
  compress?: boolean
}

export class SecretBox {
  // A KeyObject, not bytes: Node would otherwise make one from the bytes on every seal and open.
  readonly #key: KeyObject
  #nonces = Buffer.alloc(0)
  #nonceAt = 0

  constructor(secretKey: string, purpose: string) {
    this.#key = createSecretKey(Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', `secret-box:${purpose}`, 32)))
  }

  seal(plaintext: Uint8Array | string, associatedData = '', options: SealOptions = {}): Buffer {
    let data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext
    let version = PLAIN
    if (options.compress && data.length > 0) {
      // level 1, the input's size given (zstd-context.ts)
      const compressed = zstdCompress(data)
      if (compressed.length < data.length) {
        data = compressed
        version = COMPRESSED
      }
    }
    const nonce = this.#nonce()
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce)
    cipher.setAAD(aad(version, associatedData))
    // one buffer for the whole box: version, nonce, ciphertext (GCM's is as long as its input), tag
    const box = Buffer.allocUnsafe(1 + 12 + data.length + 16)
    box[0] = version
    nonce.copy(box, 1)
    cipher.update(data).copy(box, 13)
    cipher.final()
    cipher.getAuthTag().copy(box, 13 + data.length)
    return box
  }

  /** Throws when the ciphertext was altered, belongs to another row, or another key sealed it. */
  open(sealed: Uint8Array, associatedData = ''): Buffer {
    const box = Buffer.isBuffer(sealed) ? sealed : Buffer.from(sealed)
    if (box.length < 29 || (box[0] !== PLAIN && box[0] !== COMPRESSED)) throw new Error('not a sealed secret')
    const decipher = createDecipheriv('aes-256-gcm', this.#key, box.subarray(1, 13))
    decipher.setAAD(aad(box[0], associatedData))
    decipher.setAuthTag(box.subarray(box.length - 16))
    const data = Buffer.concat([decipher.update(box.subarray(13, box.length - 16)), decipher.final()])
    return box[0] === COMPRESSED ? zstdDecompress(data) : data
  }

  openText(sealed: Uint8Array, associatedData = ''): string {
    return this.open(sealed, associatedData).toString('utf8')
  }

  #nonce(): Buffer {
    if (this.#nonceAt + 12 > this.#nonces.length) {
      this.#nonces = randomFillSync(Buffer.allocUnsafe(NONCE_POOL))
      this.#nonceAt = 0
    }
    this.#nonceAt += 12
    return this.#nonces.subarray(this.#nonceAt - 12, this.#nonceAt)
  }
}

/** Version 1's associated data is the caller's alone (boxes sealed before version 2 still open); version 2 prefixes its version. */
const aad = (version: number, associatedData: string) =>
  version === PLAIN ? Buffer.from(associatedData, 'utf8') : Buffer.concat([Buffer.from([version]), Buffer.from(associatedData, 'utf8')])
