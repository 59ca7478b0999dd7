// Sending as an alias on a custom domain through the submission server (issue 29): AUTH with the
// alias's credential, From bound to the alias as on our own domains, the mail leaves the relay
// From the custom domain, signed d=<domain> s=veilmail with the domain's own key, which mailauth
// verifies against the key the user published; another alias on the domain cannot be used.
import { dkimVerify } from 'mailauth'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsResolver } from '../../lib/dns-resolver.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { startDnsStandIn, type DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { publishRecords } from '../../scripts/testing/domain-dns.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import type { DomainView } from '../../shared/domain-schemas.ts'
import { createSubmissionServers, type SubmissionServers } from './submission-server.ts'

let env: MailEnv
let dns: DnsStandIn
let servers: SubmissionServers
let port: number
beforeAll(async () => {
  dns = await startDnsStandIn()
  env = await createMailEnv({ env: { DNS_SERVERS: dns.server } })
  servers = createSubmissionServers({ sql: env.db.sql, boss: env.boss, config: env.config })
  port = (await servers.listen({ starttls: 0, tls: 0 }, '127.0.0.1')).starttls
}, 60_000)
afterAll(async () => {
  await servers?.close()
  await env?.close()
  await dns?.close()
})

describe('submission as a custom-domain alias', () => {
  it('sends From the custom domain, DKIM-signed with its key; another alias of the domain is refused in From', async () => {
    const api = new ApiClient(env.app())
    const { user, email } = await api.register()
    const added = (await api.json(api.post('/api/domains', { domain: 'sender-owned.example' }))).body.domain as DomainView
    publishRecords(dns, added.records)
    expect((await api.json(api.post(`/api/domains/${added.id}/check`))).body.domain.status).toBe('active')
    const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: 'hello', domain: 'sender-owned.example', forwardTo: email }))).body.alias
    await api.json(api.post(`/api/aliases/${user.id}`, { alias: 'other', domain: 'sender-owned.example', forwardTo: email }))
    const credential = (await api.json(api.post('/api/smtp-credentials', { aliasId: alias.id }))).body.credential
    expect(credential.username).toBe('hello@sender-owned.example')

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, auth: { user: credential.username, pass: credential.password }, tls: { rejectUnauthorized: false } })
    const subject = `from my domain ${crypto.randomUUID()}`
    await transport.sendMail({ from: 'Me <hello@sender-owned.example>', to: 'friend@example.org', subject, text: 'sent from my own domain' })
    const message = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`)))
    expect(message.from).toBe('hello@sender-owned.example')
    const verified = await dkimVerify(message.raw, { resolver: createDnsResolver({ timeoutMs: 2000, servers: [dns.server] }) })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([['sender-owned.example', 'veilmail', 'pass']])

    await expect(transport.sendMail({ envelope: { from: 'other@sender-owned.example', to: ['friend@example.org'] }, from: 'other@sender-owned.example', to: 'friend@example.org', subject: 's', text: 't' }))
      .rejects.toMatchObject({ responseCode: 553 })
    await expect(transport.sendMail({ envelope: { from: 'hello@sender-owned.example', to: ['friend@example.org'] }, from: 'other@sender-owned.example', to: 'friend@example.org', subject: 's', text: 't' }))
      .rejects.toMatchObject({ responseCode: 550, response: expect.stringMatching(/From header must be your alias/) })
  })
})
