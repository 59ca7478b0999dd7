// age's scrypt recipient stanza (C2SP age spec, "The scrypt recipient type") with Node's own
// scrypt and ChaCha20-Poly1305. age-encryption's version runs scrypt in JavaScript on the event
// loop (a second or two of CPU at work factor 18); Node's runs on the libuv pool, so one user
// unlocking a key does not stall every other request. At most SCRYPT_CONCURRENCY derivations run
// at once: each one holds 2^logN × 1 KiB of memory (256 MiB at 18).
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto'
import { Stanza, type Identity, type Recipient } from 'age-encryption'
import { SCRYPT_WORK_FACTOR, SCRYPT_WORK_FACTOR_RANGE } from '../../shared/age-core.ts'
import { log } from '../../lib/log.ts'

const LABEL = 'age-encryption.org/v1/scrypt'
const SCRYPT_CONCURRENCY = 2
const ZERO_NONCE = Buffer.alloc(12)

let running = 0
const waiting: (() => void)[] = []

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < SCRYPT_CONCURRENCY) running++
  else await new Promise<void>((resolve) => waiting.push(resolve)) // the slot is handed over
  try {
    return await work()
  } finally {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
}

function deriveKey(passphrase: string, salt: Uint8Array, logN: number): Promise<Buffer> {
  const N = 2 ** logN
  return withSlot(() => new Promise((resolve, reject) => {
    scrypt(passphrase, Buffer.concat([Buffer.from(LABEL), salt]), 32, { N, r: 8, p: 1, maxmem: 129 * 8 * N + 1024 * 1024 }, (error, key) => {
      log.debug('age.scrypt_derived', { logN }) // counted (veilmail_scrypt_derivations_total)
      if (error) reject(error)
      else resolve(key)
    })
  }))
}

const base64NoPad = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '')

export class NodeScryptRecipient implements Recipient {
  readonly #passphrase: string
  readonly #logN: number
  constructor(passphrase: string, logN = SCRYPT_WORK_FACTOR) {
    this.#passphrase = passphrase
    this.#logN = logN
  }

  async wrapFileKey(fileKey: Uint8Array): Promise<Stanza[]> {
    const salt = randomBytes(16)
    const key = await deriveKey(this.#passphrase, salt, this.#logN)
    const cipher = createCipheriv('chacha20-poly1305', key, ZERO_NONCE, { authTagLength: 16 })
    const body = Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()])
    return [new Stanza(['scrypt', base64NoPad(salt), String(this.#logN)], new Uint8Array(body))]
  }
}

export class NodeScryptIdentity implements Identity {
  readonly #passphrase: string
  constructor(passphrase: string) {
    this.#passphrase = passphrase
  }

  async unwrapFileKey(stanzas: Stanza[]): Promise<Uint8Array | null> {
    const stanza = stanzas.find((s) => s.args[0] === 'scrypt')
    if (!stanza) return null
    if (stanzas.length !== 1) throw new Error('scrypt recipient is not the only one in the header')
    const [, saltText, logNText] = stanza.args
    const salt = Buffer.from(saltText ?? '', 'base64')
    if (stanza.args.length !== 3 || salt.length !== 16 || base64NoPad(salt) !== saltText || !/^[1-9][0-9]*$/.test(logNText) || stanza.body.length !== 32) {
      throw new Error('invalid scrypt stanza')
    }
    const logN = Number(logNText)
    if (logN > SCRYPT_WORK_FACTOR_RANGE.max) throw new Error('scrypt work factor is too high')
    const key = await deriveKey(this.#passphrase, salt, logN)
    const decipher = createDecipheriv('chacha20-poly1305', key, ZERO_NONCE, { authTagLength: 16 })
    decipher.setAuthTag(stanza.body.subarray(16))
    try {
      return new Uint8Array(Buffer.concat([decipher.update(stanza.body.subarray(0, 16)), decipher.final()]))
    } catch {
      return null // another passphrase
    }
  }
}
