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
}

export interface AppEnv {
  Variables: {
    deps: AppDeps
    requestId: string
  }
}
