import { generateKeyPairSync, sign } from 'node:crypto'
import bs58 from 'bs58'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { enableTotp } from '../../scripts/testing/second-factor.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  // One proxy in front, so the limit test speaks from an address of its own.
  t = await createTestApp({ PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: '1', RATE_LIMITS: 'login-ip=10/900,wallet-ip=1000/900' })
})
afterAll(() => t.close())

/** A fresh Solana-style wallet: an ed25519 key whose base58 public key is the address. */
function wallet() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')
  return {
    address: bs58.encode(raw),
    sign: (message: string) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64'),
  }
}

async function nonceFor(client: ApiClient, address: string): Promise<string> {
  const res = await client.json(client.get(`/api/auth/wallet/nonce?walletAddress=${address}`))
  expect(res.status).toBe(200)
  return res.body.message
}

describe('wallet sign-in', () => {
  it('signs in the owner of the key, creating the user once', async () => {
    const w = wallet()
    const client = new ApiClient(t.app)
    const message = await nonceFor(client, w.address)
    expect(message).toContain(`localhost:3000 wants you to sign in with your Solana account:\n${w.address}`)
    const res = await client.json(client.post('/api/auth/wallet', { walletAddress: w.address, message, signature: w.sign(message) }))
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ walletAddress: w.address, authMethod: 'wallet', email: null })
    expect((await client.get('/api/auth/session')).status).toBe(200)

    const again = new ApiClient(t.app)
    const second = await nonceFor(again, w.address)
    const res2 = await again.json(again.post('/api/auth/wallet', { walletAddress: w.address, message: second, signature: w.sign(second) }))
    expect(res2.body.user.id).toBe(res.body.user.id)
  })

  it('with a second factor on, a wallet signature leads to the second step: no session until the code', async () => {
    const w = wallet()
    const first = new ApiClient(t.app)
    const message = await nonceFor(first, w.address)
    expect((await first.post('/api/auth/wallet', { walletAddress: w.address, message, signature: w.sign(message) })).status).toBe(200)
    const { recoveryCodes } = await enableTotp(first)
    const client = new ApiClient(t.app)
    const second = await nonceFor(client, w.address)
    const res = await client.json(client.post('/api/auth/wallet', { walletAddress: w.address, message: second, signature: w.sign(second) }))
    expect(res).toEqual({ status: 200, body: { secondFactor: { required: true, methods: ['totp', 'recovery-code'] } } })
    expect((await client.get('/api/auth/session')).status).toBe(401)
    expect((await client.post('/api/auth/second-factor', { code: recoveryCodes[0] })).status).toBe(200)
    expect((await client.get('/api/auth/session')).status).toBe(200)
  })

  it('refuses an address alone, a reused nonce, another domain and a bad signature', async () => {
    const w = wallet()
    const client = new ApiClient(t.app)
    const post = (body: object) => client.json(client.post('/api/auth/wallet', body))

    expect(await post({ walletAddress: w.address })).toEqual({ status: 401, body: { message: 'Wallet authentication failed' } })

    const message = await nonceFor(client, w.address)
    expect((await post({ walletAddress: w.address, message, signature: w.sign(message) })).status).toBe(200)
    expect((await post({ walletAddress: w.address, message, signature: w.sign(message) })).status).toBe(401) // replay

    const other = (await nonceFor(client, w.address)).replace('localhost:3000 wants', 'evil.example wants')
    expect((await post({ walletAddress: w.address, message: other, signature: w.sign(other) })).status).toBe(401)

    const fresh = await nonceFor(client, w.address)
    const impostor = wallet()
    expect((await post({ walletAddress: w.address, message: fresh, signature: impostor.sign(fresh) })).status).toBe(401)
    // the failed attempt spent the nonce: the owner cannot reuse it either
    expect((await post({ walletAddress: w.address, message: fresh, signature: w.sign(fresh) })).status).toBe(401)
  })

  it('refuses a nonce issued for another wallet, and an expired nonce', async () => {
    const a = wallet()
    const b = wallet()
    const client = new ApiClient(t.app)
    const forA = await nonceFor(client, a.address)
    const swapped = forA.replace(a.address, b.address)
    expect((await client.post('/api/auth/wallet', { walletAddress: b.address, message: swapped, signature: b.sign(swapped) })).status).toBe(401)

    const message = await nonceFor(client, a.address)
    await t.db.sql`update wallet_nonces set expires_at = now() - interval '1 second' where wallet_address = ${a.address}`
    expect((await client.post('/api/auth/wallet', { walletAddress: a.address, message, signature: a.sign(message) })).status).toBe(401)
  })

  it('validates the address', async () => {
    const client = new ApiClient(t.app)
    const res = await client.json(client.get('/api/auth/wallet/nonce?walletAddress=0OIl'))
    expect(res.status).toBe(400)
    expect((await client.json(client.post('/api/auth/wallet', {}))).body.message).toBe('Wallet address is required')
  })
})

describe('wallet sign-in limits', () => {
  it('checks at most the address limit of 100 concurrent forged signatures, and a good one past the limit does not get in', async () => {
    const owner = wallet()
    const impostor = wallet()
    const from = { 'x-forwarded-for': '198.51.100.40' }
    const client = new ApiClient(t.app)
    const messages = await Promise.all(Array.from({ length: 101 }, () => nonceFor(client, owner.address)))
    const forged = messages.slice(0, 100).map((message) =>
      new ApiClient(t.app).post('/api/auth/wallet', { walletAddress: owner.address, message, signature: impostor.sign(message) }, from))
    const statuses = (await Promise.all(forged)).map((r) => r.status)
    const checked = statuses.filter((s) => s === 401).length
    expect(checked).toBeLessThanOrEqual(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - checked)
    // a checked attempt spends its nonce; a refused one never reached it
    const [{ spent }] = await t.db.sql`select count(*)::int as spent from wallet_nonces where wallet_address = ${owner.address} and used_at is not null`
    expect(spent).toBe(checked)

    const late = await client.json(client.post('/api/auth/wallet', { walletAddress: owner.address, message: messages[100], signature: owner.sign(messages[100]) }, from))
    expect(late.status).toBe(429)
    expect(late.body.rateLimited).toBe(true)
    expect((await client.get('/api/auth/session')).status).toBe(401)
  }, 60_000)
})
