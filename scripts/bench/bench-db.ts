// A database for a benchmark: DATABASE_URL (a scratch database is created on it), or an
// embedded Postgres in a temporary folder, migrated like production.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmbeddedPostgres } from '../../db/embedded.ts'
import { migrateAll } from '../migrate-all.ts'
import { createScratchDatabase } from '../scratch-database.ts'
import { freePort } from '../testing/free-port.ts'

/** `pid`: the embedded postmaster (absent on DATABASE_URL), whose CPU the MX benchmark reports. */
export interface BenchDatabase { url: string; pid?: number; close(): Promise<void> }

/**
 * BENCH_PG_STATEMENTS=1: the embedded Postgres loads pg_stat_statements (it ships with Postgres),
 * so a benchmark can say which statements its CPU went to (scripts/bench/pg-statements.ts).
 */
export const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1'

export async function benchDatabase(): Promise<BenchDatabase> {
  const name = `vm_bench_${process.pid}_${Date.now()}`
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL, 'vm_bench')
    return { url: scratch.url, close: scratch.drop }
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-'))
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), port: await freePort(), database: name,
    ...(PG_STATEMENTS ? { settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.track_planning': 'on' } } : {}) })
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
    pid: db.pid,
    async close() {
      process.off('exit', orphanGuard)
      await db.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
