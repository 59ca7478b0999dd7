// npm run migrate: apply pending migrations (safe to run twice, and from two processes at once).
import { config } from '../lib/config.ts'
import { migrateAll } from './migrate-all.ts'
import { withDatabase } from './with-database.ts'

const applied = await withDatabase(config(), (url) => migrateAll(url, config().secretKey))
console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date')
