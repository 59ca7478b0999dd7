import { once } from 'node:events'
import net from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { connectWithoutDelay, createSql, splitSocketDir } from './client.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(async () => {
  await db.drop()
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('Postgres connections', () => {
  it('are made with TCP_NODELAY, so a COPY end or a second statement is not held back for an ACK', async () => {
    const noDelay = vi.spyOn(net.Socket.prototype, 'setNoDelay')
    // over TCP even when the test server is reached through its Unix socket
    const sql = createSql(splitSocketDir(db.url).rest, { max: 2 })
    try {
      // two statements at once: two connections of the pool
      const [[a], [b]] = await Promise.all([sql`select pg_backend_pid() as pid, pg_sleep(0.05)`, sql`select pg_backend_pid() as pid`])
      expect(a.pid).not.toBe(b.pid)
      expect(noDelay.mock.calls.filter(([on]) => on === true).length).toBeGreaterThanOrEqual(2)
    } finally {
      await sql.end()
    }
  })

  it('go to each host of a URL that lists several in turn, a host that does not answer failing with the reason', async () => {
    const server = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const open = (server.address() as net.AddressInfo).port
      const closed = await closedPort()
      const connect = connectWithoutDelay()
      const hosts = { host: ['127.0.0.1', '127.0.0.1'], port: [closed, open] }
      await expect(connect(hosts)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
      const socket = await connect(hosts)
      expect(socket.remotePort).toBe(open)
      socket.destroy()
    } finally {
      server.close()
    }
  })

  it('go to a Unix socket named as libpq names it (?host=/directory), the other parameters kept', () => {
    expect(splitSocketDir('postgres://u:p%40ss@127.0.0.1:5433/db?host=%2Fvar%2Frun%2Fpg%20dir&sslmode=disable')).toEqual({
      rest: 'postgres://u:p%40ss@127.0.0.1:5433/db?sslmode=disable', socketDir: '/var/run/pg dir',
    })
    // a host that is not a directory path is left to postgres.js, and so is a URL with none
    for (const url of ['postgres://u@db.example:5432/db?host=other', 'postgres://u@127.0.0.1/db']) expect(splitSocketDir(url)).toEqual({ rest: url })
  })
})
