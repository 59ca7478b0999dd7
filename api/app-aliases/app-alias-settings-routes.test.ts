// "Aliases created by apps" (issue 28): the domain, the form of the name and the target that
// aliases made through an API key get; only a confirmed target can be chosen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function user() {
  const client = new ApiClient(t.app)
  const { user, email } = await client.register()
  const key = (await client.json(client.post('/api/api-keys', { name: 'apps' }))).body.apiKey.key as string
  return { client, userId: user.id as string, email: email.toLowerCase(), key }
}
const randomNew = async (key: string) => (await t.app.request('/compat/simplelogin/api/alias/random/new', { method: 'POST', headers: { Authentication: key } })).json()

describe('aliases created by apps', () => {
  it('default to the first domain, random words and the account address', async () => {
    const { client, email } = await user()
    expect((await client.json(client.get('/api/app-alias-settings'))).body.settings).toEqual({
      domain: 'veilmail.test', nameForm: 'words', forwardTo: null, domains: ['veilmail.test', 'veil.test'], targets: [email], accountEmail: email,
    })
  })

  it('follow the chosen domain, form and confirmed target', async () => {
    const { client, userId, key, email } = await user()
    const other = `other-${crypto.randomUUID().slice(0, 8)}@example.org`
    await client.json(client.post(`/api/aliases/${userId}`, { alias: `a${Date.now() % 100000}`, domain: 'veil.test', forwardTo: other }))
    const refused = await client.json(client.request('PUT', '/api/app-alias-settings', { domain: 'veil.test', nameForm: 'characters', forwardTo: other }))
    expect([refused.status, refused.body.errors.forwardTo]).toEqual([400, ['Choose a confirmed target (the dashboard confirms new ones by mail)']])
    await client.confirmForwardTarget(other)
    expect((await client.json(client.request('PUT', '/api/app-alias-settings', { domain: 'veil.test', nameForm: 'characters', forwardTo: other }))).status).toBe(200)
    const made = await randomNew(key)
    expect(made.email).toMatch(/^[a-z0-9]{12}@veil\.test$/)
    expect(made.mailboxes).toEqual([{ id: 2, email: other }])
    const settings = (await client.json(client.get('/api/app-alias-settings'))).body.settings
    expect(settings).toMatchObject({ domain: 'veil.test', nameForm: 'characters', forwardTo: other, targets: [email, other] })
  })

  it('refuse a domain that is not ours and a form that does not exist', async () => {
    const { client } = await user()
    expect((await client.json(client.request('PUT', '/api/app-alias-settings', { domain: 'gmail.com', nameForm: 'words', forwardTo: null }))).status).toBe(400)
    expect((await client.json(client.request('PUT', '/api/app-alias-settings', { domain: 'veil.test', nameForm: 'emoji', forwardTo: null }))).status).toBe(400)
  })
})
