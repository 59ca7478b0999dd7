// Encryption keys (docs/decisions/0002): list, create, download, make default, delete. The web app creates
// and opens keys in the browser (create with publicKey + encryptedPrivateKey, then
// GET …/encrypted-private-key); API clients may let the server do it with the master password.
import { Hono } from 'hono'
import type { MiddlewareHandler } from 'hono'
import { deleteEncryptionKey, findEncryptionKey, insertEncryptionKey, listEncryptionKeys, lockKeyOwner, setDefaultEncryptionKey, type EncryptionKeyRow, type EncryptionKeyWithSecret } from '../../db/encryption-keys.ts'
import type { AuthedEnv } from '../auth/session.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { AgeFailure, createKeyPair, isX25519Recipient, passphraseWorkFactor, SCRYPT_WORK_FACTOR_RANGE, unlockPrivateKey } from '../../shared/age-core.ts'
import { ageFailure } from './age-failure-response.ts'
import { CreateKeySchema, MasterPasswordSchema, MAX_KEYS_PER_USER, UpdateKeySchema, type EncryptionKeyView, type KeyFile, type KeyMaterial } from '../../shared/encryption-schemas.ts'
import { NodeScryptIdentity, NodeScryptRecipient } from './node-scrypt.ts'

export function keyView(row: EncryptionKeyRow): EncryptionKeyView {
  return { id: row.id, keyName: row.keyName, name: row.keyName, publicKey: row.publicKey, createdAt: row.createdAt.toISOString(), isDefault: row.isDefault }
}

const TOO_MANY_KEYS = `You can keep at most ${MAX_KEYS_PER_USER} encryption keys. Delete one you no longer use.`
const NOT_PASSPHRASE = 'The encrypted private key must be an age file locked with a passphrase (scrypt, work factor 18 to 20)'

type KeyEnv = AuthedEnv & { Variables: AuthedEnv['Variables'] & { key: EncryptionKeyWithSecret } }

/** Loads the path's key for its owner before the body is read: anyone else gets 404. */
const ownKey: MiddlewareHandler<KeyEnv> = async (c, next) => {
  const key = await findEncryptionKey(c.var.deps.sql, c.var.user.id, c.req.param('keyId')!)
  if (!key) return notFound(c)
  c.set('key', key)
  await next()
}

export const encryptionKeyRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    return c.json({ keys: (await listEncryptionKeys(c.var.deps.sql, c.var.user.id)).map(keyView) })
  })
  .post('/', signedIn, jsonBody(CreateKeySchema), async (c) => {
    const input = c.req.valid('json')
    const userId = c.var.user.id
    let material: { publicKey: string; encryptedPrivateKey: string }
    if (input.mode === 'server') {
      // Locking costs the same scrypt as unlocking: it counts against the same limit.
      const hit = await countAction(c, 'decrypt-user', userId, { userId })
      if (!hit.allowed) return tooMany(c, hit)
      material = await createKeyPair(new NodeScryptRecipient(input.masterPassword))
    } else {
      if (!isX25519Recipient(input.publicKey)) {
        return c.json({ message: 'Public key is not a valid age public key', errors: { publicKey: ['Public key is not a valid age public key'] } }, 400)
      }
      const logN = passphraseWorkFactor(input.encryptedPrivateKey)
      if (logN === undefined || logN < SCRYPT_WORK_FACTOR_RANGE.min || logN > SCRYPT_WORK_FACTOR_RANGE.max) {
        return c.json({ message: NOT_PASSPHRASE, errors: { encryptedPrivateKey: [NOT_PASSPHRASE] } }, 400)
      }
      material = input
    }
    const row = await c.var.deps.sql.begin(async (tx) => {
      await lockKeyOwner(tx, userId)
      return insertEncryptionKey(tx, userId, { keyName: input.keyName, ...material }, MAX_KEYS_PER_USER)
    })
    if (!row) return c.json({ message: TOO_MANY_KEYS }, 400)
    return c.json({ success: true as const, key: keyView(row) }, 201)
  })
  .get('/:keyId/encrypted-private-key', signedIn, ownKey, async (c) => {
    const { keyName, publicKey, encryptedPrivateKey, createdAt, isDefault } = c.var.key
    return c.json({ keyName, publicKey, encryptedPrivateKey, createdAt: createdAt.toISOString(), isDefault } satisfies KeyMaterial)
  })
  .post('/:keyId/download', signedIn, ownKey, jsonBody(MasterPasswordSchema), async (c) => {
    const key = c.var.key
    const userId = c.var.user.id
    if (passphraseWorkFactor(key.encryptedPrivateKey) === undefined) return ageFailure(c, new AgeFailure('needs-recreation'))
    const hit = await countAction(c, 'decrypt-user', userId, { userId })
    if (!hit.allowed) return tooMany(c, hit)
    try {
      const privateKey = await unlockPrivateKey(key.encryptedPrivateKey, new NodeScryptIdentity(c.req.valid('json').masterPassword), key.publicKey)
      return c.json({ keyName: key.keyName, publicKey: key.publicKey, privateKey, createdAt: key.createdAt.toISOString(), isDefault: key.isDefault } satisfies KeyFile)
    } catch (error) {
      if (error instanceof AgeFailure) return ageFailure(c, error)
      throw error
    }
  })
  .patch('/:keyId', signedIn, ownKey, jsonBody(UpdateKeySchema), async (c) => {
    const userId = c.var.user.id
    const keyId = c.var.key.id
    const { sql } = c.var.deps
    const found = await sql.begin(async (tx) => {
      await lockKeyOwner(tx, userId)
      return setDefaultEncryptionKey(tx, userId, keyId)
    })
    if (!found) return notFound(c)
    return c.json({ success: true as const, key: keyView((await findEncryptionKey(sql, userId, keyId))!) })
  })
  .delete('/:keyId', signedIn, async (c) => {
    const userId = c.var.user.id
    const deleted = await c.var.deps.sql.begin(async (tx) => {
      await lockKeyOwner(tx, userId)
      return deleteEncryptionKey(tx, userId, c.req.param('keyId'))
    })
    if (!deleted) return notFound(c)
    return c.json({ success: true as const })
  })
