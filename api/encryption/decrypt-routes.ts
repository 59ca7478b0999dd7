// Decryption on the server, for API clients (docs/decisions/0002): the web app decrypts in the browser and
// never sends a private key or master password. Text is checked before any scrypt work, so a
// bad paste costs nothing and does not count against the decrypt-user limit.
import { Hono } from 'hono'
import { findEncryptionKey } from '../../db/encryption-keys.ts'
import type { AppEnv } from '../context.ts'
import { signedIn } from '../http/ownership.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { AgeFailure, decryptFile, findIdentity, passphraseWorkFactor, readArmored, unlockPrivateKey } from '../../shared/age-core.ts'
import { ageFailure } from './age-failure-response.ts'
import { DecryptAutoSchema, DecryptManualSchema, type DecryptResult } from '../../shared/encryption-schemas.ts'
import { NodeScryptIdentity } from './node-scrypt.ts'

const DECRYPTED = 'Message decrypted successfully'

export const decryptRoutes = new Hono<AppEnv>()
  .post('/decrypt-auto', signedIn, jsonBody(DecryptAutoSchema), async (c) => {
    const { encryptedText, keyId, masterPassword } = c.req.valid('json')
    const userId = c.var.user.id
    const key = await findEncryptionKey(c.var.deps.sql, userId, keyId)
    if (!key) return c.json({ success: false as const, message: 'Encryption key not found' }, 404)
    try {
      const file = readArmored(encryptedText)
      if (passphraseWorkFactor(key.encryptedPrivateKey) === undefined) throw new AgeFailure('needs-recreation')
      const hit = await countAction(c, 'decrypt-user', userId, { userId })
      if (!hit.allowed) return tooMany(c, hit)
      const privateKey = await unlockPrivateKey(key.encryptedPrivateKey, new NodeScryptIdentity(masterPassword), key.publicKey)
      const decryptedText = await decryptFile(file, privateKey)
      return c.json({ success: true, decryptedText, needsRecreation: false, message: DECRYPTED } satisfies DecryptResult)
    } catch (error) {
      if (error instanceof AgeFailure) return ageFailure(c, error)
      throw error
    }
  })
  .post('/decrypt-manual', signedIn, jsonBody(DecryptManualSchema), async (c) => {
    const { encryptedText, privateKey } = c.req.valid('json')
    try {
      const file = readArmored(encryptedText)
      const decryptedText = await decryptFile(file, findIdentity(privateKey))
      return c.json({ success: true, decryptedText, message: DECRYPTED } satisfies DecryptResult)
    } catch (error) {
      if (error instanceof AgeFailure) return ageFailure(c, error)
      throw error
    }
  })
