// The one-click route's limit (issue 30): refused uses (forged links here) count against the client
// address like other mailed links (token-ip), also when they arrive at once; uses that work give
// their attempt back, so a mail provider posting many users' unsubscribes one after another is not
// held up (only as many at the same moment as the limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signLinkToken } from '../../lib/link-token.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

const LIMIT = 5
let t: TestApp
let contactIds: string[]

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: `token-ip=${LIMIT}/900` })
  const [user] = await t.db.sql`insert into users (email, auth_method) values ('limits@example.com', 'email') returning id`
  const [alias] = await t.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'limits', 'veilmail.test', 'me@example.com') returning id`
  // contacts as forwards make them (workers/delivery/forward-links.test.ts makes them through the pipeline)
  const rows = await t.db.sql<{ id: string }[]>`
    insert into reverse_aliases (alias_id, local_part, domain, contact_address)
    select ${alias.id}, 're+limits' || n, 'veilmail.test', 'sender' || n || '@outside.example' from generate_series(1, 12) n returning id`
  contactIds = rows.map((r) => r.id)
})
afterAll(() => t?.close())

const post = (token: string) => new ApiClient(t.app).request('POST', `/api/unsubscribe/${token}`, 'List-Unsubscribe=One-Click', { 'content-type': 'application/x-www-form-urlencoded' })

describe('POST /api/unsubscribe/{token} limits', () => {
  it('does not count links that work, and refuses forged ones past the limit, counted under concurrency', async () => {
    const good = contactIds.map((id) => signLinkToken(t.config.secretKey, { purpose: 'block', kind: 'contact', id }))
    // twice the limit of links that work, one after another from one address: every one acts (only
    // uses in flight at the same moment count, until each gives its attempt back)
    for (const token of good.slice(0, LIMIT * 2)) expect((await post(token)).status).toBe(200)

    const forged = good[0].slice(0, 30) + (good[0][30] === 'a' ? 'b' : 'a') + good[0].slice(31)
    const answers = await Promise.all(Array.from({ length: LIMIT + 3 }, () => post(forged)))
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(LIMIT).fill(404), 429, 429, 429])
    const limited = answers.find((r) => r.status === 429)!
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.json()).toMatchObject({ rateLimited: true, message: 'Too many link attempts from your address. Please try again later.' })
    // the address is held back for the window, even with a link that works
    expect((await post(good[LIMIT * 2])).status).toBe(429)
    expect((await t.db.sql`select count(*)::int as n from reverse_aliases where blocked_at is not null`)[0].n).toBe(LIMIT * 2)
  })
})
