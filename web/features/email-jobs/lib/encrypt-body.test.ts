import { armor, Decrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import { describe, expect, it } from 'vitest'
import { encryptBody } from './encrypt-body.ts'

describe('encryptBody', () => {
  it('armors an age file that only the recipient identity opens', async () => {
    const identity = await generateX25519Identity()
    const text = 'Meet at the usual place.\nBring the blue folder. 🔒'
    const armored = await encryptBody(text, `  ${await identityToRecipient(identity)}\n`)
    expect(armored).toMatch(/^-----BEGIN AGE ENCRYPTED FILE-----\n[\s\S]+\n-----END AGE ENCRYPTED FILE-----\n$/)
    expect(armored).not.toContain('blue folder')
    const decrypter = new Decrypter()
    decrypter.addIdentity(identity)
    expect(await decrypter.decrypt(armor.decode(armored), 'text')).toBe(text)
  })

  it('refuses something that is not an age recipient', async () => {
    await expect(encryptBody('hi', 'not-a-key')).rejects.toThrow()
  })
})
