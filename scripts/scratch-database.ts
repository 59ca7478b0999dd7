// A migrated database of its own on a Postgres server, dropped afterwards: one per test file,
// one per benchmark run.
import { randomBytes } from 'node:crypto'
import { migrateAll } from './migrate-all.ts'
import { createSql } from '../db/client.ts'

export interface ScratchDatabase {
  url: string
  drop(): Promise<void>
}

export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = createSql(serverUrl, { max: 1 })
  await admin.unsafe(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  await migrateAll(url.toString())
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}
