import { armor } from 'age-encryption'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { encryptToRecipient } from '../../lib/age.ts'
import { ageAvailable, ageDecrypt, ageEncrypt, ageKeygen } from '../../scripts/testing/age-cli.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { AGE_FAILURE_MESSAGES } from '../../shared/age-core.ts'

const withAge = ageAvailable()
// Each scrypt (work factor 18) costs a second or more of CPU; a test may run several.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 })
let t: TestApp
let client: ApiClient
/** A server-made key of `client`, and its private key (downloaded once). */
let key: { id: string; publicKey: string; privateKey: string }
const MASTER = 'correct horse battery staple'
const MESSAGE = 'Grüße aus Vilnius 🔐\nline two\n'

beforeAll(async () => {
  t = await createTestApp()
  client = new ApiClient(t.app)
  await client.register()
  const created = await client.json(client.post('/api/encryption-keys', { keyName: 'Main', masterPassword: MASTER }))
  const download = await client.json(client.post(`/api/encryption-keys/${created.body.key.id}/download`, { masterPassword: MASTER }))
  key = { id: created.body.key.id, publicKey: created.body.key.publicKey, privateKey: download.body.privateKey }
})
afterAll(() => t.close())

const auto = (body: object) => client.json(client.post('/api/decrypt-auto', body))
const manual = (body: object) => client.json(client.post('/api/decrypt-manual', body))
const failure = (status: number, kind: keyof typeof AGE_FAILURE_MESSAGES) => ({ status, body: { success: false, needsRecreation: kind === 'needs-recreation', message: AGE_FAILURE_MESSAGES[kind] } })

/** The same ciphertext with its last payload bytes cut off, armored properly again. */
function truncate(armored: string): string {
  const bytes = armor.decode(armored)
  return armor.encode(bytes.subarray(0, bytes.length - 10))
}

describe.skipIf(!withAge)('round trips with the age CLI', () => {
  it('decrypts `age -e -a -r` ciphertexts with a stored key and its master password', async () => {
    const res = await auto({ encryptedText: await ageEncrypt(MESSAGE, key.publicKey), keyId: key.id, masterPassword: MASTER })
    expect(res).toEqual({ status: 200, body: { success: true, decryptedText: MESSAGE, needsRecreation: false, message: 'Message decrypted successfully' } })
  })

  it('decrypts `age -e -a -r` ciphertexts with a pasted private key, bare or as an age-keygen file', async () => {
    const peer = await ageKeygen()
    const encryptedText = await ageEncrypt(MESSAGE, peer.publicKey)
    for (const privateKey of [peer.privateKey, peer.identityFile, JSON.stringify({ keyName: 'x', privateKey: peer.privateKey }, null, 2)]) {
      expect((await manual({ encryptedText, privateKey })).body).toEqual({ success: true, decryptedText: MESSAGE, message: 'Message decrypted successfully' })
    }
    // quoted in a reply, with CRLF line ends
    const quoted = encryptedText.trimEnd().split('\n').map((l) => `> ${l}`).join('\r\n')
    expect((await manual({ encryptedText: `Hi,\r\n\r\n${quoted}\r\n`, privateKey: peer.privateKey })).body.decryptedText).toBe(MESSAGE)
  })

  it("writes ciphertexts that `age -d -i` opens with the user's key", async () => {
    const ciphertext = await encryptToRecipient(MESSAGE, key.publicKey)
    expect(ciphertext).toMatch(/^-----BEGIN AGE ENCRYPTED FILE-----\n[\s\S]+-----END AGE ENCRYPTED FILE-----\n$/)
    expect(await ageDecrypt(ciphertext, `${key.privateKey}\n`)).toBe(MESSAGE)
  })
})

describe('failures', () => {
  let ciphertext: string
  beforeAll(async () => {
    ciphertext = await encryptToRecipient(MESSAGE, key.publicKey)
  })

  it('a wrong master password', async () => {
    expect(await auto({ encryptedText: ciphertext, keyId: key.id, masterPassword: 'not it' })).toEqual(failure(403, 'wrong-password'))
  })

  it('malformed armor', async () => {
    expect(await manual({ encryptedText: 'hello, this is not encrypted', privateKey: key.privateKey })).toEqual(failure(400, 'malformed'))
    expect(await manual({ encryptedText: ciphertext.replace(/\n([A-Za-z0-9+/]{8})/, '\n$1*'), privateKey: key.privateKey })).toEqual(failure(400, 'malformed'))
    expect(await auto({ encryptedText: 'nope', keyId: key.id, masterPassword: MASTER })).toEqual(failure(400, 'malformed'))
  })

  it('truncated ciphertext', async () => {
    expect(await manual({ encryptedText: truncate(ciphertext), privateKey: key.privateKey })).toEqual(failure(400, 'damaged'))
    const withoutEnd = ciphertext.split('\n').slice(0, -3).join('\n')
    expect(await manual({ encryptedText: withoutEnd, privateKey: key.privateKey })).toEqual(failure(400, 'damaged'))
    expect(await auto({ encryptedText: truncate(ciphertext), keyId: key.id, masterPassword: MASTER })).toEqual(failure(400, 'damaged'))
  })

  it('a message for another recipient', async () => {
    const other = await encryptToRecipient(MESSAGE, 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p')
    expect(await manual({ encryptedText: other, privateKey: key.privateKey })).toEqual(failure(422, 'wrong-key'))
    expect(await auto({ encryptedText: other, keyId: key.id, masterPassword: MASTER })).toEqual(failure(422, 'wrong-key'))
  })

  it('a pasted private key that is not one', async () => {
    expect(await manual({ encryptedText: ciphertext, privateKey: 'AGE-SECRET-KEY-1QQQQQQ' })).toEqual(failure(400, 'invalid-private-key'))
    expect(await manual({ encryptedText: ciphertext, privateKey: key.publicKey })).toEqual(failure(400, 'invalid-private-key'))
  })

  it('a stored key in an older format', async () => {
    const { user } = await client.json<{ user: { id: string } }>(client.get('/api/auth/session')).then((r) => r.body)
    const [legacy] = await t.db.sql<{ id: string }[]>`
      insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name)
      values (${user.id}, ${key.publicKey}, 'U2FsdGVkX1+legacy', 'legacy') returning id`
    expect(await auto({ encryptedText: ciphertext, keyId: legacy.id, masterPassword: MASTER })).toEqual(failure(409, 'needs-recreation'))
  })

  it('gives a message for missing fields and unknown keys', async () => {
    expect((await auto({})).body.errors).toEqual({ encryptedText: ['Encrypted text is required'], keyId: ['Please select a decryption key'], masterPassword: ['Master password is required'] })
    expect((await manual({ encryptedText: '  ' })).body.errors).toEqual({ encryptedText: ['Encrypted text is required'], privateKey: ['Private key is required'] })
    const stranger = new ApiClient(t.app)
    await stranger.register()
    const res = await stranger.json(stranger.post('/api/decrypt-auto', { encryptedText: ciphertext, keyId: key.id, masterPassword: MASTER }))
    expect(res).toEqual({ status: 404, body: { success: false, message: 'Encryption key not found' } })
    expect((await new ApiClient(t.app).post('/api/decrypt-manual', { encryptedText: ciphertext, privateKey: key.privateKey })).status).toBe(401)
  })
})
