// The one way to get a postgres.js connection. Columns come back camelCased; SQL stays snake_case.
import { once } from 'node:events'
import net from 'node:net'
import postgres from 'postgres'

export type Sql = postgres.Sql
export type Tx = postgres.TransactionSql
/** Anything a query function accepts: the pool or a transaction. */
export type Db = postgres.Sql | postgres.TransactionSql

export function createSql(url: string, options: { max?: number; name?: string } = {}): Sql {
  const { rest, socketDir } = splitSocketDir(url)
  return postgres(rest, {
    // a directory as host: postgres.js connects to its .s.PGSQL.<port> socket
    ...(socketDir ? { host: socketDir } : {}),
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // documented in postgres.js's README (options: `socket`), missing from its types
    ...({ socket: connectWithoutDelay() } as object),
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel } },
    connection: { application_name: options.name ?? 'veilmail' },
  })
}

const CONNECT_TIMEOUT_SECONDS = 10

/**
 * libpq's way to name a Unix-domain socket in a URL, `?host=/directory` (psql and node-postgres,
 * which pg-boss uses, read it too): postgres.js takes the host only from the URL's authority and
 * would send an unknown `host` parameter to the server, so it is taken out here.
 */
export function splitSocketDir(url: string): { rest: string; socketDir?: string } {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  const host = parsed?.searchParams.get('host')
  if (!parsed || !host?.startsWith('/')) return { rest: url }
  parsed.searchParams.delete('host')
  return { rest: parsed.toString(), socketDir: host }
}

/**
 * A connection with TCP_NODELAY set, as libpq and node-postgres set it and postgres.js does not:
 * with Nagle's algorithm a small write that follows one Postgres has not acknowledged yet waits
 * for that acknowledgement, which Postgres delays (up to 40 ms on Linux) when it has no reply to
 * send yet. Every COPY paid it for its end message after its data (db/copy-in.ts: a 10,000-message
 * sync took 36 s instead of 6), and statements sent together on one connection could. postgres.js
 * takes the socket connected and does the TLS request on it itself when asked to; it calls this
 * again for each reconnection, which goes to the next host of a URL that lists several, as its own does.
 */
export function connectWithoutDelay() {
  let attempt = 0
  return async (options: { host: string[]; port: number[]; path?: string | false }): Promise<net.Socket> => {
    const i = attempt++ % options.host.length
    const socket = options.path ? net.connect(options.path) : net.connect({ host: options.host[i], port: options.port[i] ?? options.port[0] })
    socket.setNoDelay(true)
    try {
      await once(socket, 'connect', { signal: AbortSignal.timeout(CONNECT_TIMEOUT_SECONDS * 1000) })
    } catch (error) {
      socket.destroy()
      throw error
    }
    return socket
  }
}
