// pg-boss's connection pool, with its statements prepared once per connection. pg-boss runs
// through node-postgres's unnamed statements, so Postgres parsed and planned its fetch and
// complete — long CTEs — on every call: 0.25 ms of planning per forwarded message, a tenth of
// Postgres's CPU for the mail flow (`BENCH_PG_STATEMENTS=1 npm run bench -- mx`). A named
// statement is parsed once per connection and, after a few runs, planned once (plan_cache_mode).
import { createHash } from 'node:crypto'
import PgBossDb from 'pg-boss/dist/db.js'

/**
 * Distinct statement texts prepared per pool; a text past these runs unnamed. pg-boss's texts are
 * few (a fetch inlines its queue's name: one text per queue and batch size); the cap bounds each
 * connection's memory should one ever carry a changing literal.
 */
export const MAX_PREPARED_TEXTS = 200
/** Texts seen once, remembered to prepare them at their second run (one-off texts stay unnamed). */
const MAX_SEEN_TEXTS = 1000

type DbConfig = ConstructorParameters<typeof PgBossDb>[0]
type Pool = { query(config: { name?: string; text: string; values?: unknown[] }): ReturnType<PgBossDb['executeSql']> }

export class PreparedStatementsDb extends PgBossDb {
  /** a text's statement name; null when it can not be prepared (several statements in one text) */
  readonly #names = new Map<string, string | null>()
  #seen = new Set<string>()

  constructor(config: DbConfig) {
    super(config)
  }

  override async executeSql(text: string, values?: unknown[]) {
    const name = this.opened ? this.#nameOf(text) : undefined
    if (!name) return super.executeSql(text, values)
    // node-postgres parses a named statement once per connection and only binds it after that
    const { pool } = this as unknown as { pool: Pool }
    try {
      return await pool.query({ name, text, values: values ?? [] })
    } catch (error) {
      // a text of several statements (pg-boss's migrations) runs only unnamed, by the simple protocol
      if ((error as { code?: string }).code !== '42601' || !/multiple commands/.test(String((error as Error).message))) throw error
      this.#names.set(text, null)
      return super.executeSql(text, values)
    }
  }

  #nameOf(text: string): string | undefined {
    const known = this.#names.get(text)
    if (known !== undefined) return known ?? undefined
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
