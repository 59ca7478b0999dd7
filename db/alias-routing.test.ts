import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { findAliasByAddress, findAliasesByAddress } from './alias-routing.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  const [user] = await db.sql<{ id: string }[]>`insert into users (email, auth_method) values ('owner@example.com', 'email') returning id`
  for (const [alias, domain] of [['shop', 'veilmail.test'], ['Shop', 'veil.test'], ['news', 'veilmail.test']]) {
    await db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${alias}, ${domain}, 'me@real.test')`
  }
})
afterAll(() => db?.drop())

describe('alias lookup for RCPT', () => {
  it('finds many addresses in one statement, in the order asked, as the single lookup would', async () => {
    const asked = [
      { localPart: 'SHOP', domain: 'veilmail.test' },
      { localPart: 'nobody', domain: 'veilmail.test' },
      { localPart: 'shop', domain: 'veil.test' },
      { localPart: 'news', domain: 'veil.test' },
      { localPart: 'news', domain: 'veilmail.test' },
      { localPart: 'shop', domain: 'veilmail.test' },
      { localPart: "x' or '1'='1", domain: 'veilmail.test' },
    ]
    const found = await findAliasesByAddress(db.sql, asked)
    expect(found.map((a) => a && `${a.alias}@${a.domain}`)).toEqual(['shop@veilmail.test', undefined, 'Shop@veil.test', undefined, 'news@veilmail.test', 'shop@veilmail.test', undefined])
    for (const [i, a] of asked.entries()) expect(found[i]).toEqual(await findAliasByAddress(db.sql, a.localPart, a.domain))
    expect(await findAliasesByAddress(db.sql, [])).toEqual([])
  })
})
