// A database for a benchmark: DATABASE_URL (a scratch database is created on it), or an
// embedded Postgres in a temporary folder, migrated like production.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { startEmbeddedPostgres } from '../../db/embedded.ts'
import { migrateAll } from '../migrate-all.ts'
import { freePort } from '../testing/free-port.ts'

export interface BenchDatabase { url: string; close(): Promise<void> }

export async function benchDatabase(): Promise<BenchDatabase> {
  const name = `vm_bench_${process.pid}_${Date.now()}`
  if (process.env.DATABASE_URL) {
    const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database ${name}`)
    const url = new URL(process.env.DATABASE_URL)
    url.pathname = `/${name}`
    await migrateAll(url.toString())
    return {
      url: url.toString(),
      async close() {
        await admin.unsafe(`drop database if exists ${name} with (force)`)
        await admin.end()
      },
    }
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-'))
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), port: await freePort(), database: name })
  // A benchmark stopped early (Ctrl-C, timeout) must not leave its Postgres running.
  const orphanGuard = () => {
    try {
      process.kill(db.pid, 'SIGINT')
    } catch {}
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', orphanGuard)
  await migrateAll(db.url)
  return {
    url: db.url,
    async close() {
      process.off('exit', orphanGuard)
      await db.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
