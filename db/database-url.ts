// Where the database is. With DATABASE_URL unset, processes use the embedded Postgres that
// `npm start` runs in DATA_DIR (its password is in DATA_DIR, its port EMBEDDED_PG_PORT).
import path from 'node:path'
import type { Config } from '../lib/config.ts'
import { embeddedUrl, runningPostmasterPid } from './embedded.ts'

export const embeddedDir = (cfg: Config) => path.join(cfg.dataDir, 'postgres')

export function requireDatabaseUrl(cfg: Config): string {
  if (cfg.databaseUrl) return cfg.databaseUrl
  const dir = embeddedDir(cfg)
  if (!runningPostmasterPid(dir)) {
    process.stderr.write(`No database: set DATABASE_URL, or run \`npm start\`, which starts the embedded Postgres in ${dir}.\n`)
    process.exit(78)
  }
  return embeddedUrl(dir, cfg.embeddedPgPort)
}
