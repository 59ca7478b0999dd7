// The one-click route's limit (issue 30): the token is checked first, and only refused uses
// (forged links here) count against the client address (token-ip, 30 in 15 minutes by default),
// also when they arrive at once. A link that works is always honoured, even from an address that
// is held back: RFC 8058 one-click POSTs come from shared provider servers (Gmail, Yahoo), where
// one sender's junk must not block other people's unsubscribes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signLinkToken } from '../../lib/link-token.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
let contactIds: string[]

beforeAll(async () => {
  t = await createTestApp()
  const [user] = await t.db.sql`insert into users (email, auth_method) values ('limits@example.com', 'email') returning id`
  const [alias] = await t.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'limits', 'veilmail.test', 'me@example.com') returning id`
  // contacts as forwards make them (workers/delivery/forward-links.test.ts makes them through the pipeline)
  const rows = await t.db.sql<{ id: string }[]>`
    insert into reverse_aliases (alias_id, local_part, domain, contact_address)
    select ${alias.id}, 're+limits' || n, 'veilmail.test', 'sender' || n || '@outside.example' from generate_series(1, 12) n returning id`
  contactIds = rows.map((r) => r.id)
})
afterAll(() => t?.close())

// every request from the one client address the test app sees
const post = (token: string) => new ApiClient(t.app).request('POST', `/api/unsubscribe/${token}`, 'List-Unsubscribe=One-Click', { 'content-type': 'application/x-www-form-urlencoded' })
const blocked = async (id: string) => (await t.db.sql`select blocked_at from reverse_aliases where id = ${id}`)[0].blockedAt !== null

describe('POST /api/unsubscribe/{token} limits', () => {
  it('limits forged links from one address under concurrency, and still honours a link that works from it', async () => {
    const limit = t.config.rateLimits['token-ip'].limit
    expect(limit).toBe(30)
    const good = contactIds.map((id) => signLinkToken(t.config.secretKey, { purpose: 'block', kind: 'contact', id }))
    // links that work, one after another from one address: every one acts and none is counted
    for (const token of good.slice(0, 10)) expect((await post(token)).status).toBe(200)

    // hostile: more forged links than the limit, at once, from that address
    const forged = good[0].slice(0, 30) + (good[0][30] === 'a' ? 'b' : 'a') + good[0].slice(31)
    const answers = await Promise.all(Array.from({ length: limit + 3 }, () => post(forged)))
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(limit).fill(404), 429, 429, 429])
    const limited = answers.find((r) => r.status === 429)!
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.json()).toMatchObject({ rateLimited: true, message: 'Too many link attempts from your address. Please try again later.' })
    expect((await post(forged)).status).toBe(429)

    // a link that works, from the same address right after: honoured, and the sender really blocked
    expect(await blocked(contactIds[10])).toBe(false)
    const honoured = await post(good[10])
    expect(honoured.status).toBe(200)
    expect(await honoured.json()).toMatchObject({ message: 'Sender blocked', action: 'block', contact: 'sender11@outside.example' })
    expect(await blocked(contactIds[10])).toBe(true)
    // a used link is a refused use: still held back from that address
    expect((await post(good[10])).status).toBe(429)
    expect((await t.db.sql`select count(*)::int as n from reverse_aliases where blocked_at is not null`)[0].n).toBe(11)
  })
})
