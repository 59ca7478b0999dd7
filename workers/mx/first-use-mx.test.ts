// Aliases made on first use (issue 29), over real SMTP to the MX: a custom domain's catch-all (off:
// 550 5.1.1; on: the alias is made and the mail forwarded to the default target), the personal
// subdomain, a deleted one refused afterwards, the per-domain limit (450 4.7.1 past it, under
// concurrency), and 50 concurrent RCPTs to one new name making exactly one alias.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { newOwner, ownerWithDomain, rcptReply, startDomainMailEnv, type DomainMailEnv } from '../../scripts/testing/custom-domain-env.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'

const LIMIT = 5
let world: DomainMailEnv
let env: MailEnv
beforeAll(async () => {
  world = await startDomainMailEnv({ RATE_LIMITS: `first-use-domain=${LIMIT}/3600`, MX_MAX_CONNECTIONS_PER_IP: '100' })
  env = world.env
}, 60_000)
afterAll(async () => {
  await world?.close()
})

const signedIn = () => newOwner(env)

async function withDomain(domain: string) {
  const owner = await ownerWithDomain(world, domain)
  expect(owner.domain.status).toBe('active')
  return { ...owner, domainId: owner.domain.id }
}

const rcpt = (to: string) => rcptReply(env.mxPort, to)

const aliasesOn = async (domain: string) =>
  env.db.sql<{ alias: string; madeBy: string | null; forwardTo: string }[]>`select alias, made_by, forward_to from aliases where domain = ${domain} order by alias`

describe('catch-all', () => {
  it('off refuses unknown names; on makes the alias at first use, forwards it, a paused one drops its mail unread, and a deleted one stays refused', async () => {
    const owner = await withDomain('catch.example')
    expect(await rcpt('first@catch.example')).toMatch(/^550 5\.1\.1/)
    expect(await aliasesOn('catch.example')).toEqual([])

    expect((await owner.api.json(owner.api.patch(`/api/domains/${owner.domainId}`, { catchAll: true }))).body.domain.catchAll).toBe(true)
    const subject = `first use ${crypto.randomUUID()}`
    const sent = await env.send({ to: 'Shopping@catch.example', subject })
    expect(sent.accepted).toHaveLength(1)
    await expect.poll(() => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`) && m.to.includes(owner.email)).length, { timeout: 20_000 }).toBe(1)
    expect(await aliasesOn('catch.example')).toEqual([{ alias: 'shopping', madeBy: 'catch-all', forwardTo: owner.email }])

    // shown on the dashboard's list as made on first use
    const list = await owner.api.json(owner.api.get(`/api/aliases/${owner.userId}`))
    const made = list.body.aliases.find((a: { domain: string }) => a.domain === 'catch.example')
    expect(made).toMatchObject({ alias: 'shopping', madeBy: 'catch-all' })

    // reserved and malformed names are not made
    expect(await rcpt('postmaster@catch.example')).toMatch(/^550 5\.1\.1/)
    expect(await rcpt('"a..b"@catch.example')).toMatch(/^5/)

    // paused like any alias: its mail is accepted and dropped unread, counted, and no new alias is made
    expect((await owner.api.json(owner.api.patch(`/api/aliases/${made.id}/toggle`, { active: false }))).status).toBe(200)
    const paused = await env.send({ to: 'shopping@catch.example', subject: `while paused ${crypto.randomUUID()}` })
    expect(paused.response).toMatch(/^250 /)
    expect((await getAliasCounters(env.db.sql, [made.id])).get(made.id)).toMatchObject({ dropped: 1, forwarded: 1 })
    // (a paused alias forwards to "null", its target kept to resume with): still the one alias
    expect(await aliasesOn('catch.example')).toEqual([{ alias: 'shopping', madeBy: 'catch-all', forwardTo: 'null' }])

    // deleted: refused, not made again
    expect((await owner.api.json(owner.api.delete(`/api/aliases/${made.id}`))).status).toBe(200)
    expect(await rcpt('shopping@catch.example')).toMatch(/^550 5\.1\.1/)
    expect(await aliasesOn('catch.example')).toEqual([])

    // off again: unknown names are refused
    await owner.api.json(owner.api.patch(`/api/domains/${owner.domainId}`, { catchAll: false }))
    expect(await rcpt('another@catch.example')).toMatch(/^550 5\.1\.1/)
  })

  it(`makes at most ${LIMIT} new aliases per domain per hour, 450 4.7.1 past it, under concurrency`, async () => {
    const owner = await withDomain('limited.example')
    await owner.api.json(owner.api.patch(`/api/domains/${owner.domainId}`, { catchAll: true }))
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => rcpt(`guess${i}@limited.example`)))
    expect(replies.filter((r) => r.startsWith('250'))).toHaveLength(LIMIT)
    expect(replies.filter((r) => /^450 4\.7\.1/.test(r))).toHaveLength(20 - LIMIT)
    expect(await aliasesOn('limited.example')).toHaveLength(LIMIT)
    // the aliases made keep receiving
    const made = (await aliasesOn('limited.example'))[0].alias
    expect(await rcpt(`${made}@limited.example`)).toMatch(/^250/)
  })

  it('50 concurrent RCPTs to one new name make exactly one alias', async () => {
    const owner = await withDomain('burst.example')
    await owner.api.json(owner.api.patch(`/api/domains/${owner.domainId}`, { catchAll: true }))
    const replies = await Promise.all(Array.from({ length: 50 }, () => rcpt('same@burst.example')))
    expect(replies.filter((r) => r.startsWith('250'))).toHaveLength(50)
    expect(await aliasesOn('burst.example')).toEqual([{ alias: 'same', madeBy: 'catch-all', forwardTo: owner.email }])
  })
})

describe('personal subdomain', () => {
  it('anything@<username>.<first mail domain> makes the alias on first use; unknown usernames are refused', async () => {
    const owner = await signedIn()
    const username = `sub-${crypto.randomUUID().slice(0, 6)}`
    expect(await rcpt(`shop@${username}.veilmail.test`)).toMatch(/^550 5\.7\.1/)
    expect((await owner.api.json(owner.api.put('/api/account/username', { username }))).status).toBe(200)
    const subject = `subdomain ${crypto.randomUUID()}`
    await env.send({ to: `shop@${username}.veilmail.test`, subject })
    await expect.poll(() => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`) && m.to.includes(owner.email)).length, { timeout: 20_000 }).toBe(1)
    expect(await aliasesOn(`${username}.veilmail.test`)).toEqual([{ alias: 'shop', madeBy: 'subdomain', forwardTo: owner.email }])
    // only the first mail domain's subdomains, one label deep
    expect(await rcpt(`shop@${username}.veil.test`)).toMatch(/^550 5\.7\.1/)
    expect(await rcpt(`shop@x.${username}.veilmail.test`)).toMatch(/^550 5\.7\.1/)
  })
})
