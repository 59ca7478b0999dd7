// A database of its own for one test file, migrated like production, dropped afterwards.
import { inject } from 'vitest'
import { createSql, type Sql } from '../../db/client.ts'
import { createScratchDatabase } from '../scratch-database.ts'

export interface TestDatabase {
  url: string
  sql: Sql
  drop(): Promise<void>
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(inject('databaseUrl'), 'vm_test')
  const sql = createSql(scratch.url, { max: 5, name: 'veilmail-test' })
  return {
    url: scratch.url,
    sql,
    async drop() {
      await sql.end({ timeout: 5 })
      await scratch.drop()
    },
  }
}
