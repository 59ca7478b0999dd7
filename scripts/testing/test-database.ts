// A database of its own for one test file, migrated like production, dropped afterwards.
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { inject } from 'vitest'
import { createSql, type Sql } from '../../db/client.ts'
import { migrateAll } from '../migrate-all.ts'

export interface TestDatabase {
  url: string
  sql: Sql
  drop(): Promise<void>
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = new URL(inject('databaseUrl'))
  const name = `vm_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(serverUrl.toString(), { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  await migrateAll(url.toString())
  const sql = createSql(url.toString(), { max: 5, name: 'veilmail-test' })
  return {
    url: url.toString(),
    sql,
    async drop() {
      await sql.end({ timeout: 5 })
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}
