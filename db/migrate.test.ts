import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { createSql } from './client.ts'
import { migrate, migrationFiles } from './migrate.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

describe('migrations', () => {
  it('records every migration once and applies nothing the second time', async () => {
    const rows = await db.sql<{ version: string }[]>`select version from schema_migrations order by version`
    expect(rows.map((r) => r.version)).toEqual(migrationFiles().map((f) => f.replace(/\.sql$/, '')))
    expect(await migrate(db.sql)).toEqual([])
  })

  it('is safe from two processes at once', async () => {
    await db.sql.unsafe('drop schema public cascade; create schema public')
    const a = createSql(db.url, { max: 1 })
    const b = createSql(db.url, { max: 1 })
    try {
      const [first, second] = await Promise.all([migrate(a), migrate(b)])
      expect([...first, ...second].sort()).toEqual(migrationFiles().map((f) => f.replace(/\.sql$/, '')))
      const [{ count }] = await db.sql<{ count: number }[]>`select count(*)::int as count from schema_migrations`
      expect(count).toBe(migrationFiles().length)
    } finally {
      await a.end()
      await b.end()
    }
  })
})
