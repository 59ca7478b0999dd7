// For one-off commands (migrate, ops): the configured database, the embedded one `npm start`
// is running, or the embedded one started just for this command.
import { embeddedUrl, startEmbeddedPostgres } from '../db/embedded.ts'
import { embeddedDir } from '../db/database-url.ts'
import type { Config } from '../lib/config.ts'
import { acquireDataDirLock, lockHolder } from './data-dir-lock.ts'

export async function withDatabase<T>(cfg: Config, fn: (url: string) => Promise<T>): Promise<T> {
  if (cfg.databaseUrl) return fn(cfg.databaseUrl)
  const dir = embeddedDir(cfg)
  if (lockHolder(cfg.dataDir)) return fn(embeddedUrl(dir, cfg.embeddedPgPort))
  const release = acquireDataDirLock(cfg.dataDir)
  try {
    const db = await startEmbeddedPostgres({ dir, port: cfg.embeddedPgPort })
    try {
      return await fn(db.url)
    } finally {
      await db.stop()
    }
  } finally {
    release()
  }
}
