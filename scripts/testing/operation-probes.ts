// For api/openapi/openapi-conformance.test.ts: one request per route that should succeed, made
// against the real app by a signed-in user A (or a fresh user where the call ends something).
// Keyed like route-descriptions.ts; a route without a probe fails the test, and a probe that
// cannot be made here says why (`skip`), its error answers are checked all the same.
import { generateKeyPairSync, sign } from 'node:crypto'
import bs58 from 'bs58'
import { ApiClient } from './api-client.ts'
import { latestLink, mailboxOf, tokenOf } from './mailbox.ts'
import type { RouteResources } from './route-fixtures.ts'
import { enableTotp } from './second-factor.ts'
import type { TestApp } from './test-app.ts'

export interface ProbeContext {
  t: TestApp
  /** user A, signed in, with one of each resource (r) */
  a: ApiClient
  user: { id: string; email: string; password: string }
  r: RouteResources
  /** another user, signed in, with one of each resource: for calls that end or delete something */
  fresh(): Promise<{ client: ApiClient; user: { id: string; email: string; password: string }; r: RouteResources }>
}
export type Probe = ((ctx: ProbeContext) => Promise<Response>) | { skip: string }

const mailbox = (t: TestApp) => mailboxOf(t.app)!
const newEmail = () => `probe-${crypto.randomUUID()}@example.com`

async function unverified(t: TestApp) {
  const client = new ApiClient(t.app)
  const email = newEmail()
  const res = await client.post('/api/auth/register', { email, password: 'correct horse battery' })
  if (res.status !== 202) throw new Error(`register: ${res.status}`)
  return { client, email }
}

async function pendingSecondStep(ctx: ProbeContext) {
  const { client, user } = await ctx.fresh()
  const { recoveryCodes } = await enableTotp(client)
  const browser = new ApiClient(ctx.t.app)
  const login = await browser.post('/api/auth/login', { email: user.email, password: user.password })
  if (login.status !== 200) throw new Error(`login: ${login.status}`)
  return { browser, recoveryCodes }
}

function wallet() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')
  return { address: bs58.encode(raw), sign: (message: string) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64') }
}

const NEEDS_AUTHENTICATOR = { skip: 'needs a WebAuthn authenticator: web/e2e/passkeys.test.ts answers it from Chromium' }

export const OPERATION_PROBES: Record<string, Probe> = {
  'GET /api/health': ({ a }) => a.get('/api/health'),
  'GET /api/stats': ({ a }) => a.get('/api/stats'),
  'GET /api/domains': ({ a }) => a.get('/api/domains'),
  'GET /api/openapi.json': ({ a }) => a.get('/api/openapi.json'),

  'GET /api/auth/session': ({ a }) => a.get('/api/auth/session'),
  'GET /api/auth/providers': ({ a }) => a.get('/api/auth/providers'),
  'POST /api/auth/register': ({ t }) => new ApiClient(t.app).post('/api/auth/register', { email: newEmail(), password: 'correct horse battery' }),
  'POST /api/auth/login': ({ t, user }) => new ApiClient(t.app).post('/api/auth/login', { email: user.email, password: user.password }),
  'POST /api/auth/verify-email': async ({ t }) => {
    const { email } = await unverified(t)
    return new ApiClient(t.app).post('/api/auth/verify-email', { token: tokenOf(await latestLink(mailbox(t), email, '/verify-email')) })
  },
  'POST /api/auth/resend-verification': async ({ t }) => new ApiClient(t.app).post('/api/auth/resend-verification', { email: (await unverified(t)).email }),
  'POST /api/auth/forgot-password': ({ t, user }) => new ApiClient(t.app).post('/api/auth/forgot-password', { email: user.email }),
  'POST /api/auth/reset-password': async (ctx) => {
    const { user } = await ctx.fresh()
    await new ApiClient(ctx.t.app).post('/api/auth/forgot-password', { email: user.email })
    const token = tokenOf(await latestLink(mailbox(ctx.t), user.email, '/reset-password'))
    return new ApiClient(ctx.t.app).post('/api/auth/reset-password', { token, password: 'another horse battery' })
  },
  'POST /api/auth/confirm-target': async ({ t, a, user }) => {
    const target = newEmail()
    const made = await a.post(`/api/aliases/${user.id}`, { alias: `ct-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target })
    if (made.status !== 201 && made.status !== 200) throw new Error(`alias: ${made.status}`)
    return new ApiClient(t.app).post('/api/auth/confirm-target', { token: tokenOf(await latestLink(mailbox(t), target, '/confirm-target')) })
  },
  'POST /api/auth/logout': async ({ t, user }) => {
    const client = new ApiClient(t.app)
    await client.post('/api/auth/login', { email: user.email, password: user.password })
    return client.post('/api/auth/logout')
  },
  'GET /api/auth/wallet/nonce': ({ a }) => a.get(`/api/auth/wallet/nonce?walletAddress=${wallet().address}`),
  'POST /api/auth/wallet': async ({ t }) => {
    const w = wallet()
    const client = new ApiClient(t.app)
    const { message } = await (await client.get(`/api/auth/wallet/nonce?walletAddress=${w.address}`)).json() as { message: string }
    return client.post('/api/auth/wallet', { walletAddress: w.address, message, signature: w.sign(message) })
  },
  'GET /api/auth/google': ({ t }) => new ApiClient(t.app).get('/api/auth/google'),
  'GET /api/auth/google/callback': ({ t }) => new ApiClient(t.app).get('/api/auth/google/callback?code=x&state=y'),
  'GET /api/auth/second-factor': async (ctx) => (await pendingSecondStep(ctx)).browser.get('/api/auth/second-factor'),
  'POST /api/auth/second-factor': async (ctx) => {
    const { browser, recoveryCodes } = await pendingSecondStep(ctx)
    return browser.post('/api/auth/second-factor', { code: recoveryCodes[0] })
  },
  'POST /api/auth/passkey/options': ({ t }) => new ApiClient(t.app).post('/api/auth/passkey/options', {}),
  'POST /api/auth/passkey': NEEDS_AUTHENTICATOR,
  'GET /api/auth/microsoft': ({ a }) => a.get('/api/auth/microsoft'),
  'GET /api/auth/microsoft/callback': ({ a }) => a.get('/api/auth/microsoft/callback?code=x&state=y'),

  'GET /api/account-stats': ({ a }) => a.get('/api/account-stats'),
  'DELETE /api/account': async (ctx) => (await ctx.fresh()).client.delete('/api/account'),
  'GET /api/account/totp': ({ a }) => a.get('/api/account/totp'),
  'POST /api/account/totp': async (ctx) => (await ctx.fresh()).client.post('/api/account/totp'),
  'POST /api/account/totp/confirm': async (ctx) => {
    const { client } = await ctx.fresh()
    const started = await client.json(client.post('/api/account/totp'))
    const { authenticatorFor } = await import('./second-factor.ts')
    return client.post('/api/account/totp/confirm', { code: authenticatorFor(started.body.otpauthUri).code() })
  },
  'POST /api/account/totp/passkey-options': async (ctx) => {
    const { client } = await ctx.fresh()
    await enableTotp(client)
    return client.post('/api/account/totp/passkey-options', {})
  },
  'DELETE /api/account/totp': async (ctx) => {
    const { client, user } = await ctx.fresh()
    const { authenticator } = await enableTotp(client)
    return client.request('DELETE', '/api/account/totp', { password: user.password, code: authenticator.code(1) })
  },
  'POST /api/account/recovery-codes': async (ctx) => {
    const { client } = await ctx.fresh()
    await enableTotp(client)
    return client.post('/api/account/recovery-codes')
  },
  'GET /api/account/sessions': ({ a }) => a.get('/api/account/sessions'),
  'POST /api/account/sessions/end-others': async (ctx) => (await ctx.fresh()).client.post('/api/account/sessions/end-others'),
  'DELETE /api/account/sessions/{sessionId}': async ({ t, a, user }) => {
    const other = new ApiClient(t.app)
    await other.post('/api/auth/login', { email: user.email, password: user.password })
    const { sessions } = (await a.json(a.get('/api/account/sessions'))).body as { sessions: { id: string; current: boolean }[] }
    const id = sessions.find((s) => !s.current)!.id
    return a.delete(`/api/account/sessions/${id}`)
  },
  'POST /api/account/password': async (ctx) => {
    const { client, user } = await ctx.fresh()
    return client.post('/api/account/password', { currentPassword: user.password, password: 'a brand new horse battery' })
  },
  'GET /api/account/passkeys': ({ a }) => a.get('/api/account/passkeys'),
  'POST /api/account/passkeys/options': ({ a }) => a.post('/api/account/passkeys/options', {}),
  'POST /api/account/passkeys': NEEDS_AUTHENTICATOR,
  'PATCH /api/account/passkeys/{passkeyId}': ({ a, r }) => a.patch(`/api/account/passkeys/${r.passkeyId}`, { name: 'renamed' }),
  'DELETE /api/account/passkeys/{passkeyId}': ({ a, r }) => a.delete(`/api/account/passkeys/${r.passkeyId}`),

  'GET /api/aliases/{userId}': ({ a, user }) => a.get(`/api/aliases/${user.id}`),
  'GET /api/aliases/{userId}/with-smtp': ({ a, user }) => a.get(`/api/aliases/${user.id}/with-smtp`),
  'POST /api/aliases/{userId}': ({ a, user }) => a.post(`/api/aliases/${user.id}`, { alias: `p-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: user.email }),
  'PUT /api/aliases/{aliasId}': ({ a, r }) => a.put(`/api/aliases/${r.aliasId}`, { notes: 'changed' }),
  'PATCH /api/aliases/{aliasId}/toggle': async ({ a, user }) => {
    const made = await a.json(a.post(`/api/aliases/${user.id}`, { alias: `tg-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: user.email }))
    return a.patch(`/api/aliases/${made.body.alias.id}/toggle`, { active: false })
  },
  'DELETE /api/aliases/{aliasId}': async (ctx) => {
    const { client, r } = await ctx.fresh()
    return client.delete(`/api/aliases/${r.aliasId}`)
  },
  'GET /api/aliases/{aliasId}/webhook-secret': ({ a, r }) => a.get(`/api/aliases/${r.aliasId}/webhook-secret`),
  'POST /api/aliases/{aliasId}/webhook-secret/rotate': ({ a, r }) => a.post(`/api/aliases/${r.aliasId}/webhook-secret/rotate`),

  'GET /api/account/username': ({ a }) => a.get('/api/account/username'),
  'PUT /api/account/username': async (ctx) => (await ctx.fresh()).client.put('/api/account/username', { username: `u${crypto.randomUUID().slice(0, 8)}` }),
  'POST /api/domains': ({ a }) => a.post('/api/domains', { domain: `p-${crypto.randomUUID().slice(0, 8)}.example` }),
  'POST /api/domains/{domainId}/check': ({ a, r }) => a.post(`/api/domains/${r.domainId}/check`),
  'PATCH /api/domains/{domainId}': ({ a, r }) => a.patch(`/api/domains/${r.domainId}`, { catchAll: false }),
  'DELETE /api/domains/{domainId}': ({ a, r }) => a.delete(`/api/domains/${r.domainId}`),

  'GET /api/api-keys': ({ a }) => a.get('/api/api-keys'),
  'POST /api/api-keys': ({ a }) => a.post('/api/api-keys', { name: 'probe' }),
  'DELETE /api/api-keys/{apiKeyId}': ({ a, r }) => a.delete(`/api/api-keys/${r.apiKeyId}`),
  'GET /api/app-alias-settings': ({ a }) => a.get('/api/app-alias-settings'),
  'PUT /api/app-alias-settings': ({ a }) => a.put('/api/app-alias-settings', { domain: 'veilmail.test', nameForm: 'words', forwardTo: null }),

  'GET /api/alias-contacts/{aliasId}': ({ a, r }) => a.get(`/api/alias-contacts/${r.aliasId}`),
  'PATCH /api/alias-contacts/{aliasId}/{contactId}': ({ a, r }) => a.patch(`/api/alias-contacts/${r.aliasId}/${r.contactId}`, { blocked: true }),
  'GET /api/sender-block-settings': ({ a }) => a.get('/api/sender-block-settings'),
  'PUT /api/sender-block-settings': ({ a }) => a.put('/api/sender-block-settings', { unsubscribeAction: 'block', blockedReply: 'drop', blockLink: false }),
  'GET /api/unsubscribe-events': ({ a }) => a.get('/api/unsubscribe-events'),
  'POST /api/unsubscribe-events/{eventId}/undo': ({ a, r }) => a.post(`/api/unsubscribe-events/${r.eventId}/undo`),
  'DELETE /api/unsubscribe-events/{eventId}': async (ctx) => {
    const { client, r } = await ctx.fresh()
    return client.delete(`/api/unsubscribe-events/${r.eventId}`)
  },
  'GET /api/unsubscribe/{token}': ({ t, r }) => new ApiClient(t.app).get(`/api/unsubscribe/${r.token}`),
  'GET /api/unsubscribe/{token}/details': ({ t, r }) => new ApiClient(t.app).get(`/api/unsubscribe/${r.token}/details`),
  // RFC 8058 §3.1: what a mail provider's server posts, with no cookie
  'POST /api/unsubscribe/{token}': ({ t, r }) => new ApiClient(t.app).request('POST', `/api/unsubscribe/${r.token}`, 'List-Unsubscribe=One-Click', { 'content-type': 'application/x-www-form-urlencoded' }),
  'GET /api/forward-targets': ({ a }) => a.get('/api/forward-targets'),
  'POST /api/forward-targets/resend': async ({ a, user }) => {
    const target = newEmail()
    await a.post(`/api/aliases/${user.id}`, { alias: `rs-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target })
    return a.post('/api/forward-targets/resend', { email: target })
  },
  'POST /api/forward-targets/enable': async ({ a, user }) => {
    await a.post(`/api/aliases/${user.id}`, { alias: `en-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: user.email })
    return a.post('/api/forward-targets/enable', { email: user.email })
  },
  'POST /api/forward-targets/test': async ({ a, user }) => {
    await a.post(`/api/aliases/${user.id}`, { alias: `te-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: user.email })
    return a.post('/api/forward-targets/test', { email: user.email })
  },
  'GET /api/forward-targets/test/{testMailId}': ({ a, r }) => a.get(`/api/forward-targets/test/${r.testMailId}`),
  'GET /api/bounces': ({ a }) => a.get('/api/bounces'),
  'PUT /api/bounces': ({ a }) => a.put('/api/bounces', { threshold: 3 }),
  'DELETE /api/bounces/{noticeId}': ({ a, r }) => a.delete(`/api/bounces/${r.noticeId}`),

  'POST /api/smtp-credentials': async ({ a, user }) => {
    const made = await a.json(a.post(`/api/aliases/${user.id}`, { alias: `sm-${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: user.email }))
    return a.post('/api/smtp-credentials', { aliasId: made.body.alias.id })
  },
  'GET /api/smtp-credentials/alias/{aliasId}': ({ a, r }) => a.get(`/api/smtp-credentials/alias/${r.aliasId}`),
  'GET /api/smtp-credentials/alias/{aliasId}/password': ({ a, r }) => a.get(`/api/smtp-credentials/alias/${r.aliasId}/password`),
  'PATCH /api/smtp-credentials/{credentialId}/alias/{aliasId}/regenerate': ({ a, r }) => a.patch(`/api/smtp-credentials/${r.credentialId}/alias/${r.aliasId}/regenerate`),
  'DELETE /api/smtp-credentials/{credentialId}/alias/{aliasId}': ({ a, r }) => a.delete(`/api/smtp-credentials/${r.credentialId}/alias/${r.aliasId}`),

  'POST /api/email-jobs': ({ a, r }) => a.post('/api/email-jobs', { to: 'friend@example.org', subject: 'probe', body: 'hello', fromAliasId: r.aliasId }),
  'GET /api/email-jobs/{jobId}/status': ({ a, r }) => a.get(`/api/email-jobs/${r.jobId}/status`),
  'POST /api/email-jobs/{jobId}/cancel': ({ a, r }) => a.post(`/api/email-jobs/${r.jobId}/cancel`),

  'GET /api/undelivered': ({ a }) => a.get('/api/undelivered'),
  'POST /api/undelivered/{undeliveredId}/retry': ({ a, r }) => a.post(`/api/undelivered/${r.undeliveredId}/retry`),
  'DELETE /api/undelivered/{undeliveredId}': ({ a, r }) => a.delete(`/api/undelivered/${r.undeliveredId}`),
  'GET /api/undelivered/webhooks': ({ a }) => a.get('/api/undelivered/webhooks'),
  'POST /api/undelivered/webhooks/{deliveryId}/retry': { skip: 'a failing delivery waits as a pg-boss job of the delivery pipeline: api/undelivered/webhook-failures.test.ts retries one for real; here the 409 of one without its job is checked' },
  'DELETE /api/undelivered/webhooks/{deliveryId}': ({ a, r }) => a.delete(`/api/undelivered/webhooks/${r.deliveryId}`),

  'GET /api/email-providers': ({ a }) => a.get('/api/email-providers'),
  'POST /api/email-providers': ({ a }) => a.post('/api/email-providers', {
    provider: 'other', email: 'probe@mail.example',
    encryptedCredentials: Buffer.from(JSON.stringify({ email: 'probe@mail.example', password: 'pw', host: 'imap.mail.example', port: 993, secure: true })).toString('base64'),
  }),
  'DELETE /api/email-providers/{providerId}': async (ctx) => {
    const { client, r } = await ctx.fresh()
    return client.delete(`/api/email-providers/${r.providerId}`)
  },
  'PATCH /api/email-providers/{providerId}': ({ a, r }) => a.patch(`/api/email-providers/${r.providerId}`, { username: 'login-name', host: 'imap2.mail.example', port: 143, secure: false }),
  'POST /api/email-providers/{providerId}/sync': ({ a, r }) => a.post(`/api/email-providers/${r.providerId}/sync`),
  'GET /api/email-providers/{providerId}/sync-jobs/{syncJobId}': ({ a, r }) => a.get(`/api/email-providers/${r.providerId}/sync-jobs/${r.syncJobId}`),
  'PUT /api/drafts/{draftId}': ({ a, r }) => a.put(`/api/drafts/${r.draftId}`, { providerId: r.providerId, to: 'friend@example.org', subject: 'probe', body: 'half written' }),
  'DELETE /api/drafts/{draftId}': ({ a, r }) => a.delete(`/api/drafts/${r.draftId}`),
  'PUT /api/email-providers/{providerId}/smtp': ({ a, r }) => a.put(`/api/email-providers/${r.providerId}/smtp`, { host: 'smtp.example.org', port: 465, security: 'tls' }),
  'PATCH /api/email-providers/{providerId}/folders': async ({ t, a, r }) => {
    // the folders a sync listed from the IMAP server (the sync's own tests list them from Dovecot)
    await t.db.sql`insert into mailbox_folders (provider_id, path, enabled) values (${r.providerId}, 'Archive', false)`
    return a.patch(`/api/email-providers/${r.providerId}/folders`, { path: 'Archive', enabled: true })
  },
  'GET /api/emails': ({ a }) => a.get('/api/emails'),
  'GET /api/emails/counts': ({ a }) => a.get('/api/emails/counts'),
  'GET /api/emails/events': ({ a }) => a.get('/api/emails/events'),
  'GET /api/emails/{emailId}': ({ a, r }) => a.get(`/api/emails/${r.emailId}`),
  'PATCH /api/emails/{emailId}': ({ a, r }) => a.patch(`/api/emails/${r.emailId}`, { isStarred: true }),
  'DELETE /api/emails/{emailId}': ({ a, r }) => a.delete(`/api/emails/${r.emailId}`),
  'POST /api/emails/{emailId}/move': async (ctx) => {
    const { client, r } = await ctx.fresh()
    // a folder the sync listed from the IMAP server (the sync's own tests list them from Dovecot)
    const [folder] = await ctx.t.db.sql<{ id: string }[]>`insert into mailbox_folders (provider_id, path, enabled) values (${r.providerId}, 'Archive', true) returning id`
    return client.post(`/api/emails/${r.emailId}/move`, { folderId: folder.id })
  },
  'POST /api/emails/{emailId}/restore': async ({ a, r }) => {
    await a.delete(`/api/emails/${r.emailId}`)
    return a.post(`/api/emails/${r.emailId}/restore`)
  },
  'GET /api/emails/{emailId}/attachments/{attachmentId}': ({ a, r }) => a.get(`/api/emails/${r.emailId}/attachments/${r.attachmentId}`),

  'GET /api/encryption-keys': ({ a }) => a.get('/api/encryption-keys'),
  'POST /api/encryption-keys': ({ a }) => a.post('/api/encryption-keys', { keyName: 'probe', masterPassword: 'the master password' }),
  'GET /api/encryption-keys/{keyId}/encrypted-private-key': ({ a, r }) => a.get(`/api/encryption-keys/${r.keyId}/encrypted-private-key`),
  'POST /api/encryption-keys/{keyId}/download': ({ a, r }) => a.post(`/api/encryption-keys/${r.keyId}/download`, { masterPassword: 'the master password' }),
  'PATCH /api/encryption-keys/{keyId}': ({ a, r }) => a.patch(`/api/encryption-keys/${r.keyId}`, { isDefault: true }),
  'DELETE /api/encryption-keys/{keyId}': async (ctx) => {
    const { client, r } = await ctx.fresh()
    return client.delete(`/api/encryption-keys/${r.keyId}`)
  },
  'POST /api/decrypt-auto': async ({ a }) => {
    const { Encrypter } = await import('age-encryption')
    const { keys } = (await a.json(a.get('/api/encryption-keys'))).body as { keys: { id: string; publicKey: string; isDefault: boolean }[] }
    const key = keys.find((k) => k.isDefault)!
    const e = new Encrypter()
    e.addRecipient(key.publicKey)
    const { armor } = await import('age-encryption')
    const encryptedText = armor.encode(await e.encrypt('probe text'))
    return a.post('/api/decrypt-auto', { encryptedText, keyId: key.id, masterPassword: 'the master password' })
  },
  'POST /api/decrypt-manual': async ({ a }) => {
    const age = await import('age-encryption')
    const identity = await age.generateIdentity()
    const e = new age.Encrypter()
    e.addRecipient(await age.identityToRecipient(identity))
    return a.post('/api/decrypt-manual', { encryptedText: age.armor.encode(await e.encrypt('probe text')), privateKey: identity })
  },
}
