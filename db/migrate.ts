// Versioned SQL migrations: db/migrations/NNNN-name.sql, applied in order, each recorded.
// A transaction-scoped advisory lock makes two processes migrating at once safe: the second
// waits, then finds nothing left to do.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Sql } from './client.ts'

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')
const LOCK_KEY = 7_461_001 // arbitrary, constant: "veilmail migrations"

export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir).filter((f) => /^\d{4}-[\w-]+\.sql$/.test(f)).sort()
}

/** Applies every pending migration; returns the versions applied now. */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const applied: string[] = []
  for (const file of migrationFiles(dir)) {
    const version = file.replace(/\.sql$/, '')
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${LOCK_KEY})`
      await tx`create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())`
      const [done] = await tx`select 1 from schema_migrations where version = ${version}`
      if (done) return
      await tx.unsafe(readFileSync(path.join(dir, file), 'utf8'))
      await tx`insert into schema_migrations (version) values (${version})`
      applied.push(version)
    })
  }
  return applied
}
