// Key pairs made and opened in this browser (age-encryption's scrypt, work factor 18): the
// private key and the master password never leave it. Only lazy routes may import this (and
// age-core), so age-encryption stays out of the first bundle.
import { createKeyPair, unlockPrivateKey, type NewKeyPair } from '../../../../api/encryption/age-core.ts'
import type { KeyMaterial } from '../../../../api/encryption/encryption-schemas.ts'
import { nextPaint } from '../../../lib/next-paint.ts'

// scrypt holds the main thread for about a second: each call lets the pending state paint first.

export async function makeKeyPair(masterPassword: string): Promise<NewKeyPair> {
  await nextPaint()
  return createKeyPair(masterPassword)
}

/** The private key of a stored key; AgeFailure 'wrong-password' or 'needs-recreation' otherwise. */
export async function openKey(material: KeyMaterial, masterPassword: string): Promise<string> {
  await nextPaint()
  return unlockPrivateKey(material.encryptedPrivateKey, masterPassword, material.publicKey)
}
