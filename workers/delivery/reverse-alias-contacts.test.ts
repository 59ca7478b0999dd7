// The reverse aliases a forward names: made once per (alias, contact) however many deliveries ask at
// once, and kept by the delivery process once used.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../scripts/testing/test-database.ts'
import { ReverseAliasContacts } from './reverse-alias-contacts.ts'

let db: TestDatabase
let alias: { id: string; domain: string }

beforeAll(async () => {
  db = await createTestDatabase()
  const [user] = await db.sql<{ id: string }[]>`insert into users (email, auth_method) values ('contacts@example.com', 'email') returning id`
  const [row] = await db.sql<{ id: string }[]>`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'contacts', 'veilmail.test', 'me@real.test') returning id`
  alias = { id: row.id, domain: 'veilmail.test' }
})
afterAll(async () => {
  await db?.drop()
})

it('names the reverse alias another delivery made while it asked, and one per contact whatever the case', async () => {
  const contacts = new ReverseAliasContacts()
  // another delivery is making the reverse alias of Ann and has not committed yet
  let commit: (() => void) | undefined
  const other = db.sql.begin(async (tx) => {
    await tx`insert into reverse_aliases (alias_id, local_part, domain, contact_address, contact_name)
      values (${alias.id}, 're+othermadeitfirst', ${alias.domain}, 'ann@outside.example', null)`
    await new Promise<void>((resolve) => { commit = resolve })
  })
  await expect.poll(() => commit !== undefined).toBe(true)
  const asking = contacts.addresses(db.sql, alias, [{ address: 'ANN@outside.example', name: 'Ann' }, { address: 'bob@outside.example', name: '' }])
  // our insert waits on the other's uncommitted row, then finds it taken
  await expect.poll(async () => (await db.sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`)[0].n).toBe(1)
  commit!()
  await other
  const named = await asking
  expect(named.get('ann@outside.example')).toBe('re+othermadeitfirst@veilmail.test')
  expect(named.get('bob@outside.example')).toMatch(/^re\+[a-z2-7]{32}@veilmail\.test$/)
  const rows = await db.sql<{ contactAddress: string }[]>`select contact_address from reverse_aliases where alias_id = ${alias.id} order by contact_address`
  expect(rows.map((r) => r.contactAddress)).toEqual(['ann@outside.example', 'bob@outside.example'])

  // known now: asked again, in any case, they come from the process without a statement
  await db.sql`delete from reverse_aliases where alias_id = ${alias.id} and contact_address = 'bob@outside.example'`
  const again = await contacts.addresses(db.sql, alias, [{ address: 'Bob@Outside.example', name: '' }])
  expect(again.get('bob@outside.example')).toBe(named.get('bob@outside.example'))
})
