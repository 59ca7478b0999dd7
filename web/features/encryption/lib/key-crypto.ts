// Key pairs made and opened in this browser (age-encryption's scrypt, work factor 18): the
// private key and the master password never leave it. scrypt holds a CPU for a second or more,
// so it runs in the age worker and the page keeps painting its pending state meanwhile.
import type { NewKeyPair } from '../../../../shared/age-core.ts'
import type { KeyMaterial } from '../../../../shared/encryption-schemas.ts'
import { runAge } from '../../../lib/age/age-client.ts'

export function makeKeyPair(masterPassword: string): Promise<NewKeyPair> {
  return runAge('createKeyPair', { masterPassword })
}

/** The private key of a stored key; AgeError 'wrong-password' or 'needs-recreation' otherwise. */
export function openKey(material: KeyMaterial, masterPassword: string): Promise<string> {
  return runAge('unlockPrivateKey', { encryptedPrivateKey: material.encryptedPrivateKey, masterPassword, publicKey: material.publicKey })
}
