// The compose body is encrypted here, before it is posted, so the server only ever sees the
// armored age file (it keeps an armored body as is). age-encryption loads on the first encrypted
// send, which keeps it out of the first bundle and out of the compose page's own chunk.

/** Encrypts `text` to one age recipient (age1…) and returns the ASCII-armored file. */
export async function encryptBody(text: string, recipient: string): Promise<string> {
  const { armor, Encrypter } = await import('age-encryption')
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient.trim())
  return armor.encode(await encrypter.encrypt(text))
}
