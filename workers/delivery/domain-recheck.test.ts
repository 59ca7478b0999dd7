// The daily re-check of custom domains (issue 29): a record removed after verification is reported
// by the check (state and what was found) and mailed to the owner, once; the domain stays active.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerWithDomain, startDomainMailEnv, type DomainMailEnv } from '../../scripts/testing/custom-domain-env.ts'
import type { DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { publishMx, publishTxt } from '../../scripts/testing/domain-dns.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import type { DomainView } from '../../shared/domain-schemas.ts'
import { recheckDomains } from './domain-recheck.ts'

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

const mailsTo = (email: string, subject: string) => env.relay.messages.filter((m) => m.to.includes(email) && m.raw.toString().includes(subject))

describe('daily domain re-check', () => {
  it('reports a record removed later, mails the owner once, and keeps the domain active', async () => {
    const { api, email, userId, domain: added } = await ownerWithDomain(world, 'recheck.example')
    expect(added.records.every((r) => r.state === 'ok')).toBe(true)

    // checked today by the user: the daily job leaves it
    await recheckDomains(env.deps, env.boss)
    const [fresh] = await env.db.sql`select checked_at from custom_domains where id = ${added.id}`
    // a day later, the DKIM record is gone and the MX points elsewhere
    await env.db.sql`update custom_domains set checked_at = now() - interval '25 hours' where id = ${added.id}`
    publishTxt(dns, `veilmail._domainkey.recheck.example`, [])
    publishMx(dns, 'recheck.example', ['mx.elsewhere.example'])
    await recheckDomains(env.deps, env.boss)

    const listed = (await api.json(api.get('/api/domains'))).body.customDomains[0] as DomainView
    expect(listed.status).toBe('active')
    expect(new Date(listed.checkedAt!).getTime()).toBeGreaterThan(new Date(fresh.checkedAt).getTime())
    const states = Object.fromEntries(listed.records.map((r) => [r.purpose, [r.state, r.found]]))
    expect(states).toEqual({ ownership: ['ok', [expect.stringMatching(/^veilmail-verification=/)]], mx: ['wrong', ['10 mx.elsewhere.example']], spf: ['ok', [expect.any(String)]], dkim: ['missing', []], dmarc: ['ok', [expect.any(String)]] })

    const subject = 'DNS records of recheck.example need attention'
    await expect.poll(() => mailsTo(email, subject).length, { timeout: 20_000 }).toBe(1)
    const text = mailsTo(email, subject)[0].raw.toString().replace(/=\r\n/g, '')
    expect(text).toContain('The MX record no longer points to us')
    expect(text).toContain('Found: 10 mx.elsewhere.example')
    expect(text).toContain('The DKIM record is missing or changed')
    expect(text).not.toContain('SPF record')

    // still broken the next day: not mailed again
    await env.db.sql`update custom_domains set checked_at = now() - interval '25 hours' where id = ${added.id}`
    await recheckDomains(env.deps, env.boss)
    const [again] = await env.db.sql`select count(*)::int as n from email_jobs where user_id = ${userId} and source = 'system'`
    // one verification mail at registration and one about the DNS
    expect(again.n).toBe(2)
  })
})
