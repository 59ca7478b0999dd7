// Decryption in the browser, for the Decrypt page and the inbox's encrypted-block widget. The
// text is checked first (no network, no scrypt for a bad paste); failures are AgeFailure with
// the texts of api/encryption/age-core.ts.
import { decryptFile, findIdentity, readArmored, unlockPrivateKey } from '../../../../api/encryption/age-core.ts'
import type { KeyMaterial } from '../../../../api/encryption/encryption-schemas.ts'
import { nextPaint } from '../../../lib/next-paint.ts'

/** Throws AgeFailure unless the text holds a complete armored age message. */
export function checkEncryptedText(encryptedText: string): void {
  readArmored(encryptedText)
}

/** With a pasted private key: bare, an age-keygen identity file or a downloaded key file. */
export async function decryptWithPrivateKey(encryptedText: string, privateKey: string): Promise<string> {
  const file = readArmored(encryptedText)
  const identity = findIdentity(privateKey)
  await nextPaint()
  return decryptFile(file, identity)
}

/** With a saved key (its locked material from the server) and its master password. */
export async function decryptWithKeyMaterial(encryptedText: string, material: KeyMaterial, masterPassword: string): Promise<string> {
  const file = readArmored(encryptedText)
  await nextPaint()
  const privateKey = await unlockPrivateKey(material.encryptedPrivateKey, masterPassword, material.publicKey)
  return decryptFile(file, privateKey)
}
