import argon2 from 'argon2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ SMTP_PUBLIC_HOST: 'smtp.veilmail.example', SUBMISSION_PORT: '10587', SUBMISSION_TLS_PUBLIC_PORT: '465' })
})
afterAll(() => t.close())

async function aliasOwner() {
  const client = new ApiClient(t.app)
  const { user } = await client.register()
  const name = `send-${crypto.randomUUID().slice(0, 8)}`
  const res = await client.json(client.post(`/api/aliases/${user.id}`, { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' }))
  return { client, userId: user.id, aliasId: res.body.alias.id as string, address: `${name}@veilmail.test` }
}

describe('SMTP credentials', () => {
  it('creates one per alias, shows the password once and on reveal, stored only sealed and hashed', async () => {
    const { client, aliasId, address } = await aliasOwner()
    const created = await client.json(client.post('/api/smtp-credentials', { aliasId }))
    expect(created.status).toBe(201)
    const { credential } = created.body
    expect(credential).toMatchObject({ aliasId, username: address, host: 'smtp.veilmail.example', ports: { starttls: 10587, tls: 465 } })
    expect(Buffer.from(credential.password, 'base64url').length).toBeGreaterThanOrEqual(16)

    const [row] = await t.db.sql`select encrypted_password, password_verifier from smtp_credentials where id = ${credential.id}`
    expect(row.encryptedPassword.includes(Buffer.from(credential.password))).toBe(false)
    expect(await argon2.verify(row.passwordVerifier, credential.password)).toBe(true)

    const list = await client.json(client.get(`/api/smtp-credentials/alias/${aliasId}`))
    expect(list.body).toMatchObject({ host: 'smtp.veilmail.example', ports: { starttls: 10587, tls: 465 } })
    expect(list.body.credentials).toEqual([{ id: credential.id, aliasId, username: address, active: true, createdAt: expect.any(String) }])
    expect(JSON.stringify(list.body)).not.toContain(credential.password)
    expect((await client.json(client.get(`/api/smtp-credentials/alias/${aliasId}/password`))).body).toEqual({ success: true, password: credential.password })
    expect((await client.post('/api/smtp-credentials', { aliasId })).status).toBe(409)
  })

  it('regenerates (the old password stops working at once) and deletes', async () => {
    const { client, aliasId } = await aliasOwner()
    const { credential } = (await client.json(client.post('/api/smtp-credentials', { aliasId }))).body
    const regenerated = await client.json(client.patch(`/api/smtp-credentials/${credential.id}/alias/${aliasId}/regenerate`))
    expect(regenerated.body.credential.password).not.toBe(credential.password)
    const [row] = await t.db.sql`select password_verifier from smtp_credentials where id = ${credential.id}`
    expect(await argon2.verify(row.passwordVerifier, credential.password)).toBe(false)
    expect(await argon2.verify(row.passwordVerifier, regenerated.body.credential.password)).toBe(true)
    expect((await client.json(client.get(`/api/smtp-credentials/alias/${aliasId}/password`))).body.password).toBe(regenerated.body.credential.password)
    expect((await client.json(client.delete(`/api/smtp-credentials/${credential.id}/alias/${aliasId}`))).body).toEqual({ message: 'SMTP credentials deleted' })
    expect((await client.json(client.get(`/api/smtp-credentials/alias/${aliasId}`))).body.credentials).toEqual([])
  })

  it('follows a renamed alias and lists aliases with SMTP for the sender picker', async () => {
    const { client, userId, aliasId } = await aliasOwner()
    await client.post('/api/smtp-credentials', { aliasId })
    const renamed = `renamed-${crypto.randomUUID().slice(0, 8)}`
    await client.put(`/api/aliases/${aliasId}`, { alias: renamed })
    expect((await client.json(client.get(`/api/smtp-credentials/alias/${aliasId}`))).body.credentials[0].username).toBe(`${renamed}@veilmail.test`)
    const withSmtp = await client.json(client.get(`/api/aliases/${userId}/with-smtp`))
    expect(withSmtp.body.aliases).toEqual([{ id: aliasId, alias: renamed, domain: 'veilmail.test', createdAt: expect.anything() }])
  })

  it('validates the alias id', async () => {
    const { client } = await aliasOwner()
    expect((await client.json(client.post('/api/smtp-credentials', {}))).body.message).toBe('Alias ID is required')
  })
})
