// age (age-encryption.org/v1) on the server: encrypt a text to one recipient, armored.
import { armor, Encrypter } from 'age-encryption'

export const isArmoredAge = (text: string) => /^-----BEGIN AGE ENCRYPTED FILE-----\r?\n[\s\S]+-----END AGE ENCRYPTED FILE-----\s*$/.test(text.trim())

export async function encryptToRecipient(plaintext: string | Uint8Array, recipient: string): Promise<string> {
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient.trim())
  return armor.encode(await encrypter.encrypt(plaintext))
}
