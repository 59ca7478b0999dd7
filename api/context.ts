// What every request handler can reach: the process's dependencies and the request's identity.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../db/client.ts'
import type { Config } from '../lib/config.ts'

export interface AppDeps {
  sql: Sql
  boss: PgBoss
  config: Config
  /** the built web app (dist/web); absent in API-only tests */
  webRoot?: string
  /** an extra trusted CA for IMAP servers (PEM; tests), besides the system's and NODE_EXTRA_CA_CERTS: the search's body words */
  imapCa?: string
}

export interface AppEnv {
  Variables: {
    deps: AppDeps
    requestId: string
  }
}
