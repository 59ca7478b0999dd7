// age (age-encryption.org/v1, C2SP age spec) as Veilmail uses it: X25519 key pairs whose private
// key is stored as an age file encrypted to the master password (scrypt stanza), and armored
// messages decrypted with such a key. Shared by the API and the browser, like the alias rules:
// keep it free of Node-only imports. The server passes its own scrypt (node-scrypt.ts) as the
// `lock`/`unlock` argument; the browser passes the master password and age-encryption's scrypt.
import { armor, Decrypter, Encrypter, generateX25519Identity, identityToRecipient, type Identity, type Recipient } from 'age-encryption'
import { AGE_RECIPIENT_RE } from './age-recipient-rules.ts'

export const ARMOR_BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----'
export const ARMOR_END = '-----END AGE ENCRYPTED FILE-----'
/** age's own default (`age -p`); about a second of scrypt in JavaScript. */
export const SCRYPT_WORK_FACTOR = 18
/** Stored keys must cost at least the default to brute-force, and at most what the library opens. */
export const SCRYPT_WORK_FACTOR_RANGE = { min: 18, max: 20 } as const

const IDENTITY_RE = /AGE-SECRET-KEY-(?:PQ-)?1[02-9AC-HJ-NP-Z]+/

export type AgeFailureKind = 'malformed' | 'damaged' | 'wrong-key' | 'wrong-password' | 'invalid-private-key' | 'needs-recreation'

/** What the user reads for each way a decryption can fail (under a "Decryption failed" title). */
export const AGE_FAILURE_MESSAGES: Record<AgeFailureKind, string> = {
  malformed: `This is not an age encrypted message. Paste the whole block, from ${ARMOR_BEGIN} to ${ARMOR_END}.`,
  damaged: 'The encrypted message is incomplete or damaged. Copy the whole block again and retry.',
  'wrong-key': 'This message was not encrypted to this key.',
  'wrong-password': 'Incorrect master password for this key.',
  'invalid-private-key': 'This is not a valid age private key. It starts with AGE-SECRET-KEY-1.',
  'needs-recreation': 'This key was created with an older method. Please delete it and create a new one in Settings.',
}

export class AgeFailure extends Error {
  readonly kind: AgeFailureKind
  constructor(kind: AgeFailureKind) {
    super(AGE_FAILURE_MESSAGES[kind])
    this.name = 'AgeFailure'
    this.kind = kind
  }
}

export const isX25519Recipient = (key: string) => AGE_RECIPIENT_RE.test(key) && parses(() => new Encrypter().addRecipient(key))

function parses(fn: () => void): boolean {
  try {
    fn()
    return true
  } catch {
    return false
  }
}

/**
 * The age file inside pasted text: finds the armor lines, drops e-mail quote markers ("> ") and
 * re-wrapped or indented lines, then decodes. Missing BEGIN → malformed; missing END or a broken
 * body → damaged (the usual result of a partial copy).
 */
export function readArmored(text: string): Uint8Array {
  const lines = text.split(/\r?\n/).map((line) => line.replace(/^[\s>]+/, '').trim())
  const begin = lines.indexOf(ARMOR_BEGIN)
  if (begin < 0) throw new AgeFailure('malformed')
  const end = lines.indexOf(ARMOR_END, begin + 1)
  if (end < 0) throw new AgeFailure('damaged')
  const body = lines.slice(begin + 1, end).join('')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw new AgeFailure('malformed')
  if (body.length === 0 || body.length % 4 !== 0) throw new AgeFailure('damaged')
  const wrapped = body.match(/.{1,64}/g)!.join('\n')
  try {
    return armor.decode(`${ARMOR_BEGIN}\n${wrapped}\n${ARMOR_END}\n`)
  } catch {
    throw new AgeFailure('damaged')
  }
}

/** The scrypt work factor when `armored` is an age file locked by a passphrase alone; undefined otherwise. */
export function passphraseWorkFactor(armored: string): number | undefined {
  let file: Uint8Array
  try {
    file = armor.decode(armored)
  } catch {
    return undefined
  }
  const headerEnd = indexOfBytes(file, '\n---')
  if (headerEnd < 0) return undefined
  const lines = new TextDecoder().decode(file.subarray(0, headerEnd)).split('\n')
  if (lines[0] !== 'age-encryption.org/v1') return undefined
  const stanzas = lines.filter((line) => line.startsWith('-> ')).map((line) => line.slice(3).split(' '))
  if (stanzas.length !== 1) return undefined
  const [type, salt, logN, ...rest] = stanzas[0]
  if (type !== 'scrypt' || rest.length || !/^[A-Za-z0-9+/]{22}$/.test(salt ?? '') || !/^[1-9][0-9]?$/.test(logN ?? '')) return undefined
  return Number(logN)
}

function indexOfBytes(bytes: Uint8Array, ascii: string): number {
  const needle = new TextEncoder().encode(ascii)
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

/** The first age identity in pasted text: a bare key, an age-keygen file or our downloaded JSON. */
export function findIdentity(text: string): string {
  const identity = text.match(IDENTITY_RE)?.[0]
  if (!identity || !parses(() => new Decrypter().addIdentity(identity))) throw new AgeFailure('invalid-private-key')
  return identity
}

/** Decrypts an age file with an identity, as UTF-8 text. */
export async function decryptFile(file: Uint8Array, identity: string | Identity): Promise<string> {
  const decrypter = new Decrypter()
  decrypter.addIdentity(identity)
  return decryptWith(decrypter, file, 'wrong-key')
}

/** Decrypts a pasted armored message with a private key (bare, identity file or key file). */
export async function decryptArmored(text: string, privateKey: string): Promise<string> {
  const file = readArmored(text)
  return decryptFile(file, findIdentity(privateKey))
}

async function decryptWith(decrypter: Decrypter, file: Uint8Array, noMatch: AgeFailureKind): Promise<string> {
  try {
    return await decrypter.decrypt(file, 'text')
  } catch (error) {
    if (error instanceof AgeFailure) throw error
    // The library reports a file for someone else this way; anything else (header syntax,
    // HMAC, a payload chunk's tag, a short stream) means the bytes are not what was encrypted.
    const unmatched = error instanceof Error && /no identity matched/.test(error.message)
    throw new AgeFailure(unmatched ? noMatch : 'damaged')
  }
}

/** age-keygen's identity file, so the decrypted key also works as `age -d -i FILE`. */
export function identityFile(privateKey: string, publicKey: string, created: Date): string {
  return `# created: ${created.toISOString().replace(/\.\d{3}Z$/, 'Z')}\n# public key: ${publicKey}\n${privateKey}\n`
}

/** A passphrase for age-encryption's own scrypt, or a Recipient/Identity that implements it. */
export type Lock = string | Recipient
export type Unlock = string | Identity

export async function lockPrivateKey(plaintext: string, lock: Lock): Promise<string> {
  const encrypter = new Encrypter()
  if (typeof lock === 'string') {
    encrypter.setScryptWorkFactor(SCRYPT_WORK_FACTOR)
    encrypter.setPassphrase(lock)
  } else {
    encrypter.addRecipient(lock)
  }
  return armor.encode(await encrypter.encrypt(plaintext))
}

export interface NewKeyPair {
  publicKey: string
  /** identityFile(…) encrypted to the master password, armored */
  encryptedPrivateKey: string
}

/** A fresh X25519 identity; only its locked form leaves this function. */
export async function createKeyPair(lock: Lock, now = new Date()): Promise<NewKeyPair> {
  const privateKey = await generateX25519Identity()
  const publicKey = await identityToRecipient(privateKey)
  return { publicKey, encryptedPrivateKey: await lockPrivateKey(identityFile(privateKey, publicKey, now), lock) }
}

/**
 * The private key inside a stored key. A stored key that is not a passphrase-locked age file,
 * holds no identity, or holds one that does not match its public key needs recreation; a wrong
 * master password is `wrong-password`.
 */
export async function unlockPrivateKey(encryptedPrivateKey: string, unlock: Unlock, publicKey?: string): Promise<string> {
  if (passphraseWorkFactor(encryptedPrivateKey) === undefined) throw new AgeFailure('needs-recreation')
  const decrypter = new Decrypter()
  if (typeof unlock === 'string') decrypter.addPassphrase(unlock)
  else decrypter.addIdentity(unlock)
  const plaintext = await decryptWith(decrypter, armor.decode(encryptedPrivateKey), 'wrong-password')
  const privateKey = plaintext.match(IDENTITY_RE)?.[0]
  if (!privateKey) throw new AgeFailure('needs-recreation')
  if (publicKey !== undefined) {
    const derived = await identityToRecipient(privateKey).catch(() => undefined)
    if (derived !== publicKey) throw new AgeFailure('needs-recreation')
  }
  return privateKey
}
