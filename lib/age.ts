// age (age-encryption.org/v1) on the server: encrypt a text to one recipient, armored.
import { armor, Encrypter } from 'age-encryption'

const RECIPIENT = /^age1[02-9ac-hj-np-z]{58}$/

/** True for an X25519 age recipient (age1…, Bech32, 62 characters). */
export function isAgeRecipient(key: string): boolean {
  return RECIPIENT.test(key.trim())
}

export const isArmoredAge = (text: string) => /^-----BEGIN AGE ENCRYPTED FILE-----\r?\n[\s\S]+-----END AGE ENCRYPTED FILE-----\s*$/.test(text.trim())

export async function encryptToRecipient(plaintext: string | Uint8Array, recipient: string): Promise<string> {
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient.trim())
  return armor.encode(await encrypter.encrypt(plaintext))
}
