// Decryption in the browser, for the Decrypt page and the inbox's encrypted-block widget. It runs
// in the age worker (scrypt for saved keys takes seconds). The text is checked first (no network,
// no scrypt for a bad paste); failures are AgeError with the texts of shared/age-core.ts.
import type { KeyMaterial } from '../../../../shared/encryption-schemas.ts'
import { runAge } from '../../../lib/age/age-client.ts'

/** Rejects with AgeError unless the text holds a complete armored age message. */
export async function checkEncryptedText(encryptedText: string): Promise<void> {
  await runAge('checkArmored', { encryptedText })
}

/** With a pasted private key: bare, an age-keygen identity file or a downloaded key file. */
export function decryptWithPrivateKey(encryptedText: string, privateKey: string): Promise<string> {
  return runAge('decryptWithPrivateKey', { encryptedText, privateKey })
}

/** With a saved key (its locked material from the server) and its master password. */
export function decryptWithKeyMaterial(encryptedText: string, material: KeyMaterial, masterPassword: string): Promise<string> {
  return runAge('decryptWithKeyMaterial', { encryptedText, encryptedPrivateKey: material.encryptedPrivateKey, masterPassword, publicKey: material.publicKey })
}
