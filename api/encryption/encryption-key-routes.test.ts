import { Encrypter, armor, generateX25519Identity, identityToRecipient } from 'age-encryption'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ageAvailable, ageDecrypt, ageDecryptWithPassphrase, ageEncrypt, ageEncryptWithPassphrase, ageKeygen } from '../../scripts/testing/age-cli.ts'
import { onLogEvent } from '../../lib/log.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { AGE_FAILURE_MESSAGES, createKeyPair, unlockPrivateKey } from '../../shared/age-core.ts'
import { MAX_KEYS_PER_USER } from '../../shared/encryption-schemas.ts'

const withAge = ageAvailable()
// Each scrypt (work factor 18) costs a second or more of CPU; a test may run several.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 })
let t: TestApp
/** One browser-style locked key (scrypt costs a second), reused where only the rows matter. */
let locked: Awaited<ReturnType<typeof createKeyPair>>
beforeAll(async () => {
  t = await createTestApp()
  locked = await createKeyPair('fixture password')
})
afterAll(() => t.close())

async function signedInUser() {
  const client = new ApiClient(t.app)
  const { user } = await client.register()
  return { client, userId: user.id }
}

/** A key row without scrypt work: a fresh public key with the fixture's locked file. */
async function cheapKey(client: ApiClient, keyName: string) {
  const publicKey = await identityToRecipient(await generateX25519Identity())
  const res = await client.json(client.post('/api/encryption-keys', { keyName, publicKey, encryptedPrivateKey: locked.encryptedPrivateKey }))
  expect(res.status).toBe(201)
  return res.body.key as { id: string; isDefault: boolean }
}

async function lockedWithWorkFactor(logN: number) {
  const e = new Encrypter()
  e.setScryptWorkFactor(logN)
  e.setPassphrase('pw')
  return armor.encode(await e.encrypt('AGE-SECRET-KEY-1'))
}

describe('server-made keys (API clients)', () => {
  it('generates a key locked by the master password that age opens, and downloads it', async () => {
    const { client, userId } = await signedInUser()
    const created = await client.json(client.post('/api/encryption-keys', { keyName: '  Work  ', masterPassword: 'master pässword' }))
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ success: true, key: { keyName: 'Work', name: 'Work', isDefault: true } })
    const { id, publicKey } = created.body.key
    expect(publicKey).toMatch(/^age1[02-9ac-hj-np-z]{58}$/)
    expect((await client.json(client.get('/api/encryption-keys'))).body.keys).toEqual([created.body.key])
    expect((await client.json(client.get('/api/account-stats'))).body.keys).toBe(1)

    const [row] = await t.db.sql<{ encryptedPrivateKey: string }[]>`select encrypted_private_key from encryption_keys where id = ${id} and user_id = ${userId}`
    expect(row.encryptedPrivateKey).toMatch(/^-----BEGIN AGE ENCRYPTED FILE-----\n/)
    expect(row.encryptedPrivateKey).not.toMatch(/AGE-SECRET-KEY/)

    const download = await client.json(client.post(`/api/encryption-keys/${id}/download`, { masterPassword: 'master pässword' }))
    expect(download.status).toBe(200)
    expect(Object.keys(download.body)).toEqual(['keyName', 'publicKey', 'privateKey', 'createdAt', 'isDefault'])
    expect(download.body).toMatchObject({ keyName: 'Work', publicKey, isDefault: true, createdAt: created.body.key.createdAt })
    expect(download.body.privateKey).toMatch(/^AGE-SECRET-KEY-1[0-9A-Z]{58}$/)

    if (withAge) {
      // The stored file is a plain age passphrase file holding an age-keygen identity file.
      const identityFile = await ageDecryptWithPassphrase(row.encryptedPrivateKey, 'master pässword')
      expect(identityFile).toMatch(new RegExp(`^# created: \\S+Z\\n# public key: ${publicKey}\\n${download.body.privateKey}\\n$`))
      const ciphertext = await ageEncrypt('for the server-made key', publicKey)
      expect(await ageDecrypt(ciphertext, identityFile)).toBe('for the server-made key')
    }
  })

  it('answers a wrong master password with 403 and a message, never 500', async () => {
    const { client } = await signedInUser()
    const { body } = await client.json(client.post('/api/encryption-keys', { keyName: 'k', masterPassword: 'right' }))
    const res = await client.json(client.post(`/api/encryption-keys/${body.key.id}/download`, { masterPassword: 'wrong' }))
    expect(res).toEqual({ status: 403, body: { success: false, needsRecreation: false, message: AGE_FAILURE_MESSAGES['wrong-password'] } })
    expect((await client.json(client.post(`/api/encryption-keys/${body.key.id}/download`, { masterPassword: ' ' }))).body.errors).toEqual({ masterPassword: ['Master password is required'] })
  })
})

describe('browser-made keys', () => {
  it('stores the public key and the locked private key as sent, and hands the locked file back', async () => {
    const { client } = await signedInUser()
    const made = await createKeyPair('browser master')
    const created = await client.json(client.post('/api/encryption-keys', { keyName: 'Laptop', ...made }))
    expect(created.status).toBe(201)
    const material = await client.json(client.get(`/api/encryption-keys/${created.body.key.id}/encrypted-private-key`))
    expect(material.body).toEqual({ keyName: 'Laptop', publicKey: made.publicKey, encryptedPrivateKey: made.encryptedPrivateKey, createdAt: created.body.key.createdAt, isDefault: true })
    // what the browser does with it, and the server's own scrypt agrees
    const privateKey = await unlockPrivateKey(material.body.encryptedPrivateKey, 'browser master', made.publicKey)
    const download = await client.json(client.post(`/api/encryption-keys/${created.body.key.id}/download`, { masterPassword: 'browser master' }))
    expect(download.body.privateKey).toBe(privateKey)
    if (withAge) expect(await ageDecryptWithPassphrase(made.encryptedPrivateKey, 'browser master')).toContain(privateKey)
  })

  it.skipIf(!withAge)('accepts an age-keygen identity locked with `age -p`, and opens it', async () => {
    const { client } = await signedInUser()
    const peer = await ageKeygen()
    const encryptedPrivateKey = await ageEncryptWithPassphrase(peer.identityFile, 'typed into age')
    const created = await client.json(client.post('/api/encryption-keys', { keyName: 'From the CLI', publicKey: peer.publicKey, encryptedPrivateKey }))
    expect(created.status).toBe(201)
    const download = await client.json(client.post(`/api/encryption-keys/${created.body.key.id}/download`, { masterPassword: 'typed into age' }))
    expect(download.body.privateKey).toBe(peer.privateKey)
  })

  it('refuses what is not an age public key or a passphrase-locked age file', async () => {
    const { client } = await signedInUser()
    const post = async (body: object) => (await client.json(client.post('/api/encryption-keys', body))).body
    expect((await post({})).errors).toEqual({ keyName: ['Key name is required'] })
    expect((await post({ keyName: '   ', masterPassword: 'x' })).errors).toEqual({ keyName: ['Key name is required'] })
    expect((await post({ keyName: 'x'.repeat(101), masterPassword: 'x' })).errors).toEqual({ keyName: ['Key name must be 100 characters or less'] })
    expect((await post({ keyName: 'k', masterPassword: '  ' })).errors).toEqual({ masterPassword: ['Master password is required'] })
    expect((await post({ keyName: 'k' })).errors).toEqual({ publicKey: ['Public key is required'] })
    expect((await post({ keyName: 'k', publicKey: locked.publicKey })).errors).toEqual({ encryptedPrivateKey: ['Encrypted private key is required'] })
    expect((await post({ keyName: 'k', masterPassword: 'x', ...locked })).errors.masterPassword).toHaveLength(1)
    expect((await post({ keyName: 'k', publicKey: 'ssh-ed25519 AAAA', encryptedPrivateKey: locked.encryptedPrivateKey })).errors).toEqual({ publicKey: ['Public key must be an age public key (age1…)'] })
    const badChecksum = locked.publicKey.slice(0, -1) + (locked.publicKey.endsWith('q') ? 'p' : 'q')
    expect((await post({ keyName: 'k', publicKey: badChecksum, encryptedPrivateKey: locked.encryptedPrivateKey })).errors).toEqual({ publicKey: ['Public key is not a valid age public key'] })

    const notPassphrase = 'The encrypted private key must be an age file locked with a passphrase (scrypt, work factor 18 to 20)'
    const toRecipient = new Encrypter()
    toRecipient.addRecipient(locked.publicKey)
    for (const encryptedPrivateKey of [
      'AGE-SECRET-KEY-1QQQQ', // the secret itself must never be accepted
      armor.encode(await toRecipient.encrypt('AGE-SECRET-KEY-1')),
      await lockedWithWorkFactor(10),
      '-----BEGIN AGE ENCRYPTED FILE-----\nnot base64!\n-----END AGE ENCRYPTED FILE-----',
    ]) {
      const body = await post({ keyName: 'k', publicKey: locked.publicKey, encryptedPrivateKey })
      expect(body.errors).toEqual({ encryptedPrivateKey: [notPassphrase] })
    }
    expect((await client.json(client.get('/api/encryption-keys'))).body.keys).toEqual([])
  })
})

describe('the default key', () => {
  it('is the first key; another can be made default; deleting it promotes the newest remaining key', async () => {
    const { client } = await signedInUser()
    const k1 = await cheapKey(client, 'one')
    const k2 = await cheapKey(client, 'two')
    const k3 = await cheapKey(client, 'three')
    expect([k1.isDefault, k2.isDefault, k3.isDefault]).toEqual([true, false, false])
    const defaults = async () => (await client.json(client.get('/api/encryption-keys'))).body.keys.filter((k: { isDefault: boolean }) => k.isDefault).map((k: { keyName: string }) => k.keyName)

    const patched = await client.json(client.patch(`/api/encryption-keys/${k2.id}`, { isDefault: true }))
    expect(patched.body).toMatchObject({ success: true, key: { id: k2.id, isDefault: true } })
    expect(await defaults()).toEqual(['two'])
    expect((await client.patch(`/api/encryption-keys/${k1.id}`, { isDefault: false })).status).toBe(400)

    expect((await client.json(client.delete(`/api/encryption-keys/${k2.id}`))).body).toEqual({ success: true })
    expect(await defaults()).toEqual(['three'])
    expect((await client.json(client.delete(`/api/encryption-keys/${k1.id}`))).body).toEqual({ success: true })
    expect(await defaults()).toEqual(['three'])
    await client.delete(`/api/encryption-keys/${k3.id}`)
    expect((await client.json(client.get('/api/encryption-keys'))).body.keys).toEqual([])
    expect((await client.delete(`/api/encryption-keys/${k3.id}`)).status).toBe(404)
  })

  it('stays single when one user creates keys concurrently', async () => {
    const { client, userId } = await signedInUser()
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => cheapKey(client, name)))
    const [{ count }] = await t.db.sql`select count(*)::int as count from encryption_keys where user_id = ${userId} and is_default`
    expect(count).toBe(1)
  })
})

describe('limits and odd keys', () => {
  it(`keeps at most ${MAX_KEYS_PER_USER} keys per user`, async () => {
    const { client, userId } = await signedInUser()
    await t.db.sql`
      insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name)
      select ${userId}, ${locked.publicKey}, ${locked.encryptedPrivateKey}, 'k' || g from generate_series(1, ${MAX_KEYS_PER_USER}) g`
    const res = await client.json(client.post('/api/encryption-keys', { keyName: 'one more', ...locked }))
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/at most 50 encryption keys/)
  })

  it('says needsRecreation for a stored key that is not a passphrase-locked age file', async () => {
    const { client, userId } = await signedInUser()
    const [row] = await t.db.sql<{ id: string }[]>`
      insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name, is_default)
      values (${userId}, ${locked.publicKey}, 'iv:0011:legacy-aes-blob', 'old', true) returning id`
    const res = await client.json(client.post(`/api/encryption-keys/${row.id}/download`, { masterPassword: 'anything' }))
    expect(res).toEqual({ status: 409, body: { success: false, needsRecreation: true, message: AGE_FAILURE_MESSAGES['needs-recreation'] } })
  })

  it('answers 404 for ids that are not UUIDs or not yours', async () => {
    const { client } = await signedInUser()
    const other = await signedInUser()
    const theirs = await cheapKey(other.client, 'theirs')
    expect((await client.get('/api/encryption-keys/not-a-uuid/encrypted-private-key')).status).toBe(404)
    expect((await client.get(`/api/encryption-keys/${theirs.id}/encrypted-private-key`)).status).toBe(404)
    expect((await client.post(`/api/encryption-keys/${theirs.id}/download`, { masterPassword: 'x' })).status).toBe(404)
    expect((await client.patch(`/api/encryption-keys/${theirs.id}`, { isDefault: true })).status).toBe(404)
    expect((await client.delete(`/api/encryption-keys/${theirs.id}`)).status).toBe(404)
    expect((await other.client.json(other.client.get('/api/encryption-keys'))).body.keys).toHaveLength(1)
  })
})

describe('rate limit', () => {
  it('limits server-side passphrase work per user, before doing it', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'decrypt-user=2/60' })
    try {
      const client = new ApiClient(limited.app)
      await client.register()
      const created = await client.json(client.post('/api/encryption-keys', { keyName: 'k', masterPassword: 'pw' }))
      expect((await client.post(`/api/encryption-keys/${created.body.key.id}/download`, { masterPassword: 'guess 1' })).status).toBe(403)
      let derivations = 0
      const stop = onLogEvent((_level, event) => { if (event === 'age.scrypt_derived') derivations++ })
      const third = await client.json(client.post(`/api/encryption-keys/${created.body.key.id}/download`, { masterPassword: 'guess 2' })).finally(stop)
      expect(derivations).toBe(0) // refused before any scrypt ran
      expect(third.status).toBe(429)
      expect(third.body).toMatchObject({ rateLimited: true })
    } finally {
      await limited.close()
    }
  })
})
