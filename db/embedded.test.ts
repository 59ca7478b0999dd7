// The embedded Postgres as `npm start` runs it: a fresh cluster in a temporary folder.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { freePort } from '../scripts/testing/free-port.ts'
import { startEmbeddedPostgres } from './embedded.ts'
import { createSql, splitSocketDir } from './client.ts'
import { PreparedStatementsDb } from './queue-prepared-db.ts'

it('runs with checkpoints spaced for a mail queue, no JIT, and durability as Postgres ships it', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-embedded-'))
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), port: await freePort(), database: 'settings' })
  const sql = createSql(db.url, { max: 1 })
  try {
    const rows = await sql<{ name: string; setting: string; unit: string | null }[]>`
      select name, setting, unit from pg_settings
      where name in ('checkpoint_timeout', 'max_wal_size', 'jit', 'fsync', 'synchronous_commit', 'full_page_writes')`
    const settings = Object.fromEntries(rows.map((r) => [r.name, `${r.setting}${r.unit ?? ''}`]))
    expect(settings).toEqual({
      checkpoint_timeout: '900s', max_wal_size: '4096MB', jit: 'off',
      fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on',
    })
  } finally {
    await sql.end()
    await db.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)

it('is reached through a Unix socket in its data directory, by postgres.js and node-postgres alike, and on 127.0.0.1 by tools', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-embedded-'))
  const dataDir = path.join(dir, 'postgres')
  const db = await startEmbeddedPostgres({ dir: dataDir, port: await freePort(), database: 'sockets' })
  const url = new URL(db.url)
  expect(url.searchParams.get('host')).toBe(dataDir)
  const clientAddress = 'select inet_client_addr()::text as address'
  const sql = createSql(db.url, { max: 1 })
  // pg-boss's pool (node-postgres) reads the same URL
  const queueDb = new PreparedStatementsDb({ connectionString: db.url, max: 1 })
  const tcp = createSql(splitSocketDir(db.url).rest, { max: 1 })
  try {
    expect(await sql`${sql.unsafe(clientAddress)}`).toEqual([{ address: null }])
    await queueDb.open()
    expect((await queueDb.executeSql(clientAddress)).rows).toEqual([{ address: null }])
    expect(await tcp`${tcp.unsafe(clientAddress)}`).toEqual([{ address: '127.0.0.1/32' }])
  } finally {
    await Promise.all([sql.end(), tcp.end(), queueDb.close()])
    await db.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)

it('is reached over 127.0.0.1 alone when its data directory is too deep for a socket path', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-embedded-'))
  const dataDir = path.join(dir, 'a-data-directory-deep-enough'.repeat(3), 'postgres')
  chmodSync(dir, 0o755) // when root, the server runs as the postgres user, which must reach it
  const port = await freePort()
  expect(Buffer.byteLength(path.join(dataDir, `.s.PGSQL.${port}`))).toBeGreaterThan(108)
  const db = await startEmbeddedPostgres({ dir: dataDir, port, database: 'deep' })
  expect(new URL(db.url).searchParams.has('host')).toBe(false)
  const sql = createSql(db.url, { max: 1 })
  try {
    expect(await sql`select inet_client_addr()::text as address`).toEqual([{ address: '127.0.0.1/32' }])
  } finally {
    await sql.end()
    await db.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)
