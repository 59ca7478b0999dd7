// One of each resource the API's routes name by a path parameter, owned by one user, made through
// the API where it can be and inserted where only a pipeline makes it (its own tests make those
// the real way). Keyed by the path parameter's name, so a route's path fills in from it.
import { receivedMailBox } from '../../lib/received-mail-box.ts'
import { signLinkToken } from '../../lib/link-token.ts'
import type { TestApp } from './test-app.ts'
import type { ApiClient } from './api-client.ts'

export type RouteResources = Record<string, string>

/** `label` names the alias's target (`<label>@example.com`) and the synced mail's subject (`<label> mail`), for a test that reads them back. */
export async function makeRouteResources(t: TestApp, client: ApiClient, user: { id: string; email?: string; password?: string }, label?: string): Promise<RouteResources> {
  const r: RouteResources = { userId: user.id }
  const tag = crypto.randomUUID().slice(0, 8)
  r.sessionId = (await client.json(client.get('/api/account/sessions'))).body.sessions[0].id
  const [passkey] = await t.db.sql<{ id: string }[]>`
    insert into passkeys (user_id, credential_id, public_key, name) values (${user.id}, ${`credential-${tag}`}, ${Buffer.from('key')}, 'a passkey') returning id`
  r.passkeyId = passkey.id
  const alias = await client.json(client.post(`/api/aliases/${user.id}`, { alias: `r-${tag}`, domain: 'veilmail.test', forwardTo: `${label ?? tag}@example.com` }))
  r.aliasId = alias.body.alias.id
  const domain = await client.json(client.post('/api/domains', { domain: `d-${tag}.example` }))
  r.domainId = domain.body.domain.id
  const apiKey = await client.json(client.post('/api/api-keys', { name: 'a key' }))
  r.apiKeyId = apiKey.body.apiKey.id
  r.apiKey = apiKey.body.apiKey.key
  const credential = await client.json(client.post('/api/smtp-credentials', { aliasId: r.aliasId }))
  r.credentialId = credential.body.credential.id
  const key = await client.json(client.post('/api/encryption-keys', { keyName: 'a key', masterPassword: 'the master password' }))
  r.keyId = key.body.key.id
  // a test mail to the alias's target, confirmed as following the mailed link does (api/bounces/bounce-routes.test.ts confirms it the real way)
  await t.db.sql`update forward_targets set confirmed_at = now() where user_id = ${user.id} and email = ${`${label ?? tag}@example.com`}`
  const testMail = await client.json(client.post('/api/forward-targets/test', { email: `${label ?? tag}@example.com` }))
  r.testMailId = testMail.body.jobId
  const job = await client.json(client.post('/api/email-jobs', { to: 'friend@example.org', subject: 'hi', body: 'hello', fromAliasId: r.aliasId }))
  r.jobId = job.body.jobId
  const [undelivered] = await t.db.sql<{ id: string }[]>`
    insert into undelivered_messages (user_id, alias_id, target, reason, encrypted, recipient)
    values (${user.id}, ${r.aliasId}, ${`${tag}@example.com`}, '550 5.1.1 mailbox unavailable', '-----BEGIN AGE ENCRYPTED FILE-----', 'age1x')
    returning id`
  r.undeliveredId = undelivered.id
  const [notice] = await t.db.sql<{ id: string }[]>`insert into bounce_notices (user_id, entries) values (${user.id}, '[]'::jsonb) returning id`
  r.noticeId = notice.id
  const spoolId = crypto.randomUUID()
  await t.db.sql`insert into spool_messages (id, raw, meta, size) values (${spoolId}, ${Buffer.from('sealed')}, ${Buffer.from('sealed')}, 6)`
  const [delivery] = await t.db.sql<{ id: string }[]>`
    insert into deliveries (spool_id, alias_id, kind, target, attempts, last_error, last_attempt_at)
    values (${spoolId}, ${r.aliasId}, 'webhook', 'https://hooks.example/a', 1, 'http-503', now())
    returning id`
  r.deliveryId = delivery.id
  const provider = await client.json(client.post('/api/email-providers', {
    provider: 'other', email: `${tag}@mail.example`,
    encryptedCredentials: Buffer.from(JSON.stringify({ email: `${tag}@mail.example`, password: 'pw', host: 'imap.mail.example', port: 993, secure: true })).toString('base64'),
  }))
  r.providerId = provider.body.provider.id
  r.syncJobId = provider.body.jobId
  const draftId = crypto.randomUUID()
  await client.json(client.put(`/api/drafts/${draftId}`, { providerId: r.providerId, subject: 'a draft' }))
  r.draftId = draftId
  const [folder] = await t.db.sql<{ id: string }[]>`
    insert into mailbox_folders (provider_id, path, enabled) values (${r.providerId}, 'INBOX', true) returning id`
  r.folderId = folder.id
  const [email] = await t.db.sql<{ id: string }[]>`
    insert into received_emails (user_id, provider_id, folder_id, uid, thread_id, subject, received_at)
    values (${user.id}, ${r.providerId}, ${folder.id}, 1, gen_random_uuid(), ${`${label ?? 'a'} mail`}, now()) returning id`
  r.emailId = email.id
  const [attachment] = await t.db.sql<{ id: string }[]>`
    insert into received_attachments (email_id, user_id, filename, content_type, size, content)
    values (${email.id}, ${user.id}, 'a.txt', 'text/plain', 1, '\\x00') returning id`
  r.attachmentId = attachment.id
  // a contact is made by a forward (workers/mail/sender-blocks.test.ts makes them the real way); its block link, and what one did
  const [contact] = await t.db.sql<{ id: string }[]>`
    insert into reverse_aliases (alias_id, local_part, domain, contact_address) values (${r.aliasId}, ${`re+${tag}`}, 'veilmail.test', ${`sender-${tag}@outside.example`}) returning id`
  r.contactId = contact.id
  r.token = signLinkToken(t.config.secretKey, { purpose: 'block', kind: 'contact', id: contact.id })
  const [event] = await t.db.sql<{ id: string }[]>`
    insert into unsubscribe_events (user_id, alias_id, reverse_alias_id, action, via) values (${user.id}, ${r.aliasId}, ${contact.id}, 'block', 'one-click') returning id`
  r.eventId = event.id
  await t.db.sql`update received_attachments set content = ${receivedMailBox(t.config).seal('a', attachment.id)} where id = ${attachment.id}`
  return r
}
