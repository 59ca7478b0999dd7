// A new user with an alias that can send, and compose requests from it: the sender of the tests of
// outgoing mail through the compose API (send-to-several, deferred-recipients).
import { ApiClient } from './api-client.ts'

export async function composeSender(app: ConstructorParameters<typeof ApiClient>[0], prefix: string) {
  const api = new ApiClient(app)
  const { user } = await api.register()
  const name = `${prefix}-${crypto.randomUUID().slice(0, 8)}`
  const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
  const compose = (over: Record<string, unknown>) =>
    api.json(api.post('/api/email-jobs', { to: 'friend@example.org', subject: `s ${crypto.randomUUID()}`, body: 'Hi all', fromAliasId: alias.id, ...over }))
  return { api, userId: user.id as string, aliasId: alias.id as string, address: `${name}@veilmail.test`, compose }
}
