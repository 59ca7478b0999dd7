// Encryption keys and decryption requests, shared by the Settings and Decrypt pages and
// the encryption routes. Keep this file free of Node-only imports and of age-encryption: the
// browser bundles it with the forms.
import * as v from 'valibot'
import { text } from './auth-schemas.ts'
import { AGE_RECIPIENT_RE } from './age-recipient-rules.ts'

export const KEY_NAME_MAX = 100
/** Keys one account can hold. */
export const MAX_KEYS_PER_USER = 50
export const MAX_ENCRYPTED_TEXT = 1_000_000
const MAX_PASSWORD = 1024
const MAX_PRIVATE_KEY_FILE = 4096


export const KeyNameSchema = v.pipe(
  text('Key name is required'),
  v.trim(),
  v.nonEmpty('Key name is required'),
  v.maxLength(KEY_NAME_MAX, 'Key name must be 100 characters or less'),
)

/** Non-empty after trimming, used as typed: spaces can be part of a password. */
const MasterPassword = v.pipe(
  text('Master password is required'),
  v.check((s) => s.trim().length > 0, 'Master password is required'),
  v.maxLength(MAX_PASSWORD, 'Master password must be 1024 characters or less'),
)

/**
 * Either the server makes the key (`masterPassword`, for API clients) or the browser made it and
 * sends only `publicKey` and `encryptedPrivateKey` (an age file locked by the master password).
 */
export const CreateKeySchema = v.pipe(
  v.object({
    keyName: KeyNameSchema,
    masterPassword: v.optional(v.string('Master password is required')),
    publicKey: v.optional(v.pipe(v.string('Public key is required'), v.trim())),
    // stored as armor is written: trimmed, one final newline
    encryptedPrivateKey: v.optional(v.pipe(v.string('Encrypted private key is required'), v.trim(), v.transform((s) => (s ? `${s}\n` : s)))),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const input = dataset.value
    const issue = (path: 'masterPassword' | 'publicKey' | 'encryptedPrivateKey', message: string) => {
      addIssue({ message, path: [{ type: 'object', origin: 'value', input, key: path, value: input[path] }] })
      return NEVER
    }
    if (input.masterPassword !== undefined) {
      if (input.publicKey !== undefined || input.encryptedPrivateKey !== undefined) {
        return issue('masterPassword', 'Send either masterPassword or publicKey with encryptedPrivateKey, not both')
      }
      const parsed = v.safeParse(MasterPassword, input.masterPassword)
      if (!parsed.success) return issue('masterPassword', parsed.issues[0].message)
      return { mode: 'server' as const, keyName: input.keyName, masterPassword: parsed.output }
    }
    if (!input.publicKey) return issue('publicKey', 'Public key is required')
    if (!AGE_RECIPIENT_RE.test(input.publicKey)) return issue('publicKey', 'Public key must be an age public key (age1…)')
    if (!input.encryptedPrivateKey) return issue('encryptedPrivateKey', 'Encrypted private key is required')
    if (input.encryptedPrivateKey.length > MAX_PRIVATE_KEY_FILE) return issue('encryptedPrivateKey', 'Encrypted private key is too large')
    return { mode: 'browser' as const, keyName: input.keyName, publicKey: input.publicKey, encryptedPrivateKey: input.encryptedPrivateKey }
  }),
)
export type CreateKeyInput = v.InferOutput<typeof CreateKeySchema>

export const MasterPasswordSchema = v.object({ masterPassword: MasterPassword })

export const UpdateKeySchema = v.object({
  isDefault: v.literal(true, 'isDefault must be true: make another key the default instead'),
})

const EncryptedText = v.pipe(
  text('Encrypted text is required'),
  v.trim(),
  v.nonEmpty('Encrypted text is required'),
  v.maxLength(MAX_ENCRYPTED_TEXT, 'Encrypted text is too large'),
)

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const DecryptAutoSchema = v.object({
  encryptedText: EncryptedText,
  keyId: v.pipe(text('Please select a decryption key'), v.trim(), v.regex(UUID_RE, 'Please select a decryption key')),
  masterPassword: MasterPassword,
})
export type DecryptAutoInput = v.InferOutput<typeof DecryptAutoSchema>

export const DecryptManualSchema = v.object({
  encryptedText: EncryptedText,
  privateKey: v.pipe(text('Private key is required'), v.trim(), v.nonEmpty('Private key is required'), v.maxLength(MAX_PRIVATE_KEY_FILE, 'Private key is too long')),
})
export type DecryptManualInput = v.InferOutput<typeof DecryptManualSchema>

/** A key as the list returns it (`name` repeats keyName for clients that read that field). */
export interface EncryptionKeyView {
  id: string
  keyName: string
  name: string
  publicKey: string
  createdAt: string
  isDefault: boolean
}

/** What the browser needs to open a key locally: never the private key itself. */
export interface KeyMaterial {
  keyName: string
  publicKey: string
  encryptedPrivateKey: string
  createdAt: string
  isDefault: boolean
}

/** The downloaded `{keyName}-encryption-keys.json`: the key pair opened with the master password. */
export interface KeyFile {
  keyName: string
  publicKey: string
  privateKey: string
  createdAt: string
  isDefault: boolean
}

export interface DecryptResult {
  success: boolean
  decryptedText?: string
  needsRecreation?: boolean
  message: string
}

export const keyFileName = (keyName: string) => `${keyName}-encryption-keys.json`
export const keyFileJson = (file: KeyFile) => JSON.stringify({ keyName: file.keyName, publicKey: file.publicKey, privateKey: file.privateKey, createdAt: file.createdAt, isDefault: file.isDefault }, null, 2)
