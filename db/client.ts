// The one way to get a postgres.js connection. Columns come back camelCased; SQL stays snake_case.
import postgres from 'postgres'

export type Sql = postgres.Sql
export type Tx = postgres.TransactionSql
/** Anything a query function accepts: the pool or a transaction. */
export type Db = postgres.Sql | postgres.TransactionSql

export function createSql(url: string, options: { max?: number; name?: string } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    connection: { application_name: options.name ?? 'veilmail' },
  })
}
