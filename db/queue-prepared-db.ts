// pg-boss's connection pool, with its parameterised statements prepared once per connection.
// pg-boss runs through node-postgres's unnamed statements, so Postgres parsed and planned its
// long CTEs on every call (`BENCH_PG_STATEMENTS=1 npm run bench -- mx`: 0.11 ms of planning per
// message for the complete alone). A named statement is parsed once per connection and, once
// Postgres finds a generic plan as good as the custom ones (plan_cache_mode), planned once.
import { createHash } from 'node:crypto'
import PgBossDb from 'pg-boss/dist/db.js'

/**
 * Distinct statement texts prepared per pool; a text past these runs unnamed. pg-boss's
 * parameterised texts are a few dozen; the cap bounds each connection's memory should one ever
 * carry a changing literal.
 */
export const MAX_PREPARED_TEXTS = 200
/** Texts seen once, remembered to prepare them at their second run (one-off texts stay unnamed). */
const MAX_SEEN_TEXTS = 1000

type DbConfig = ConstructorParameters<typeof PgBossDb>[0]
type Pool = { query(config: { name: string; text: string; values: unknown[] }): ReturnType<PgBossDb['executeSql']> }

export class PreparedStatementsDb extends PgBossDb {
  /** statement names by text */
  readonly #names = new Map<string, string>()
  #seen = new Set<string>()

  constructor(config: DbConfig) {
    super(config)
  }

  override async executeSql(text: string, values?: unknown[]) {
    // Only statements with parameters: a text of literals only (pg-boss's fetch inlines its queue's
    // name) would be planned once, at its first runs, and kept; a fetch planned while the job table
    // was empty read ~800 pages a call in the MX benchmark's first minute, until an autoanalyze
    // invalidated it. Planned on each run it reads ~50.
    const name = this.opened && values?.length ? this.#nameOf(text) : undefined
    if (!name || !values) return super.executeSql(text, values)
    // node-postgres parses a named statement once per connection and only binds it after that
    const { pool } = this as unknown as { pool: Pool }
    return pool.query({ name, text, values })
  }

  #nameOf(text: string): string | undefined {
    const known = this.#names.get(text)
    if (known) return known
    if (!this.#seen.has(text)) {
      if (this.#seen.size >= MAX_SEEN_TEXTS) this.#seen = new Set()
      this.#seen.add(text)
      return undefined
    }
    if (this.#names.size >= MAX_PREPARED_TEXTS) return undefined
    const name = `pgboss_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`
    this.#names.set(text, name)
    return name
  }
}
