// The embedded Postgres as `npm start` runs it: a fresh cluster in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { expect, it } from 'vitest'
import { freePort } from '../scripts/testing/free-port.ts'
import { startEmbeddedPostgres } from './embedded.ts'

it('runs with checkpoints spaced for a mail queue, no JIT, and durability as Postgres ships it', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-embedded-'))
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), port: await freePort(), database: 'settings' })
  const sql = postgres(db.url, { max: 1, onnotice: () => {} })
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
