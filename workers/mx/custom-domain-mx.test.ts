// Custom domains at the MX and in delivery (issue 29), over real SMTP: an alias on an active
// custom domain is forwarded, DKIM-signed with that domain's own key (verified by mailauth with
// the key the user published on the DNS stand-in) while SRS stays on the service domain; unknown
// local parts, pending and removed domains, and another account's alias under a name that changed
// hands are refused with 550. The owner's reply through a reverse alias leaves From the custom-domain
// alias, signed with the domain's key, without the owner's address.
import { dkimVerify } from 'mailauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsResolver } from '../../lib/dns-resolver.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { ownerWithDomain, rcptReply, startDomainMailEnv, type DomainMailEnv } from '../../scripts/testing/custom-domain-env.ts'
import type { DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'

const header = (raw: Buffer, key: string) => splitMessage(raw).headers.filter((h) => h.key === key).map(fieldValue)

let world: DomainMailEnv
let env: MailEnv
let dns: DnsStandIn
beforeAll(async () => {
  world = await startDomainMailEnv()
  ;({ env, dns } = world)
}, 60_000)
afterAll(async () => {
  await world?.close()
})

/** A user with `domain` added, published and checked (active). */
const userWithDomain = (domain: string) => ownerWithDomain(world, domain)
const rcpt = (to: string) => rcptReply(env.mxPort, to)

describe('custom domains at the MX', () => {
  it('forwards mail to an alias on an active custom domain, signed with the domain\'s own DKIM key, SRS on the service domain', async () => {
    const { api, email, userId, domain } = await userWithDomain('shop-owner.example')
    expect(domain.status).toBe('active')
    const made = await api.json(api.post(`/api/aliases/${userId}`, { alias: 'orders', domain: 'shop-owner.example', forwardTo: email }))
    expect(made.status).toBe(201)

    const subject = `custom ${crypto.randomUUID()}`
    const sent = await env.send({ to: 'Orders@Shop-Owner.example', subject, text: 'Your order shipped.' })
    expect(sent.accepted).toHaveLength(1)
    await expect.poll(() => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).length, { timeout: 20_000 }).toBe(1)
    const message = env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`))!
    expect(message.to).toEqual([email])
    expect(message.from).toMatch(/^SRS0=[^@]+@veilmail\.test$/)
    // mailauth fetches the selector's key from the DNS the user published to
    const verified = await dkimVerify(message.raw, { resolver: createDnsResolver({ timeoutMs: 2000, servers: [dns.server] }) })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([['shop-owner.example', 'veilmail', 'pass']])
    expect(header(message.raw, 'from')[0]).toContain('sender@outside.example')
  })

  it('re-sends the owner\'s reply through the reverse alias from the custom-domain alias, signed with the domain\'s own key, the owner\'s address gone', async () => {
    const { api, email, userId } = await userWithDomain('reply-owner.example')
    expect((await api.json(api.post(`/api/aliases/${userId}`, { alias: 'desk', domain: 'reply-owner.example', forwardTo: email }))).status).toBe(201)
    const subject = `question ${crypto.randomUUID()}`
    await env.send({ to: 'desk@reply-owner.example', subject, text: 'Is it in stock?', headers: { 'Message-ID': '<q-1@outside.example>' } })
    await expect.poll(() => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).length, { timeout: 20_000 }).toBe(1)
    const forwarded = env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`))!
    const reverse = header(forwarded.raw, 'reply-to')[0]
    expect(reverse).toMatch(/re\+[a-z0-9]+@reply-owner\.example/)
    const reply = [
      `From: Owner <${email}>`, `To: ${reverse}`, `Subject: Re: ${subject}`, 'Message-ID: <r-1@example.com>', 'In-Reply-To: <q-1@outside.example>',
      'Date: Thu, 26 Nov 2026 10:00:00 +0000', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', 'Yes, two left.', '',
    ].join('\r\n')
    await env.send({ envelopeFrom: email, to: [reverse.replace(/^.*<|>$/g, '')], raw: reply })
    await expect.poll(() => env.relay.messages.filter((m) => m.to.includes('sender@outside.example') && m.raw.includes('Yes, two left.')).length, { timeout: 20_000 }).toBe(1)
    const resent = env.relay.messages.find((m) => m.to.includes('sender@outside.example') && m.raw.includes('Yes, two left.'))!
    expect(header(resent.raw, 'from')[0]).toContain('desk@reply-owner.example')
    expect(resent.raw).not.toContain(email)
    const verified = await dkimVerify(resent.raw, { resolver: createDnsResolver({ timeoutMs: 2000, servers: [dns.server] }) })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([['reply-owner.example', 'veilmail', 'pass']])
  })

  it('refuses unknown local parts, pending domains, removed domains and a name that changed hands', async () => {
    const first = await userWithDomain('changed-hands.example')
    expect((await first.api.json(first.api.post(`/api/aliases/${first.userId}`, { alias: 'old', domain: 'changed-hands.example', forwardTo: first.email }))).status).toBe(201)
    expect(await rcpt('old@changed-hands.example')).toMatch(/^250/)
    expect(await rcpt('nobody@changed-hands.example')).toMatch(/^550 5\.1\.1/)
    // a pending domain (nothing published) is not ours
    const api = new ApiClient(env.app())
    await api.register()
    expect((await api.json(api.post('/api/domains', { domain: 'never-verified.example' }))).status).toBe(201)
    expect(await rcpt('anything@never-verified.example')).toMatch(/^550 5\.7\.1/)
    // removed: its aliases refuse mail
    expect((await first.api.json(first.api.delete(`/api/domains/${first.domain.id}`))).status).toBe(200)
    expect(await rcpt('old@changed-hands.example')).toMatch(/^550/)
    // another account verifies the name: the first owner's alias stays refused
    const second = await userWithDomain('changed-hands.example')
    expect(second.domain.status).toBe('active')
    expect(await rcpt('old@changed-hands.example')).toMatch(/^550 5\.1\.1/)
    expect((await second.api.json(second.api.post(`/api/aliases/${second.userId}`, { alias: 'new', domain: 'changed-hands.example', forwardTo: second.email }))).status).toBe(201)
    expect(await rcpt('new@changed-hands.example')).toMatch(/^250/)
  })
})
