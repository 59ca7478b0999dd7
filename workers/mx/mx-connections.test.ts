import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { testConfig } from '../../scripts/testing/test-app.ts'
import { createMxServer, type MxServer } from './mx-server.ts'

let env: MailEnv
const servers: MxServer[] = []
beforeAll(async () => {
  env = await createMailEnv({ worker: false })
})
afterAll(async () => {
  for (const s of servers) await s.close()
  await env?.close()
})

/** Another MX on the test database with some settings changed. */
async function mxWith(settings: Record<string, string>): Promise<number> {
  const config = testConfig({ DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, MAIL_DOMAINS: 'veilmail.test', MX_HOSTNAME: 'mx.veilmail.test', ...settings })
  const mx = createMxServer({ sql: env.db.sql, boss: env.boss, config, resolver: env.resolver })
  servers.push(mx)
  return mx.listen(0, '127.0.0.1')
}

interface Conn { socket: net.Socket; text: () => string; closed: Promise<void>; line(n: number): Promise<string> }

/** A connection that may talk first: `early` is written the moment the socket connects. */
function connect(port: number, early?: string): Conn {
  const socket = net.connect(port, '127.0.0.1')
  let received = ''
  const waiters: (() => void)[] = []
  socket.on('data', (c) => {
    received += c.toString('latin1')
    waiters.splice(0).forEach((w) => w())
  })
  socket.on('error', () => {})
  if (early) socket.once('connect', () => socket.write(early))
  const closed = new Promise<void>((resolve) => socket.once('close', () => {
    waiters.splice(0).forEach((w) => w())
    resolve()
  }))
  const line = async (n: number) => {
    for (;;) {
      const lines = received.split('\r\n')
      if (lines.length > n) return lines[n - 1]
      if (socket.destroyed) return lines[n - 1] ?? ''
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  return { socket, text: () => received, closed, line }
}

describe('MX greeting', () => {
  it('greets at once by default: a client talking right away is served, not told it talks too soon', async () => {
    const c = connect(env.mxPort, 'EHLO early.example\r\n')
    expect(await c.line(1)).toMatch(/^220 mx\.veilmail\.test /)
    expect(await c.line(2)).toMatch(/^250[- ]mx\.veilmail\.test/)
    expect(c.text()).not.toMatch(/talk too soon/i)
    c.socket.destroy()
  })

  it('with MX_GREET_PAUSE_MS, refuses a client that talks before the greeting with 554 and greets one that waits', async () => {
    const port = await mxWith({ MX_GREET_PAUSE_MS: '300' })
    const early = connect(port, 'EHLO spammer.example\r\nMAIL FROM:<a@b.example>\r\n')
    expect(await early.line(1)).toBe('554 mx.veilmail.test 5.5.1 Protocol error: talked before the greeting')
    await early.closed
    expect(early.text()).not.toMatch(/^220/m)

    const polite = connect(port)
    expect(await polite.line(1)).toMatch(/^220 mx\.veilmail\.test /)
    polite.socket.write('EHLO polite.example\r\n')
    expect(await polite.line(2)).toMatch(/^250[- ]/)
    polite.socket.destroy()
  })
})

describe('MX connection caps', () => {
  it('refuses connections past MX_MAX_CONNECTIONS_PER_IP with 421 and a reason, under concurrency, and frees the slot on close', async () => {
    const port = await mxWith({ MX_MAX_CONNECTIONS_PER_IP: '3' })
    const conns = Array.from({ length: 10 }, () => connect(port))
    const greetings = await Promise.all(conns.map((c) => c.line(1)))
    const served = conns.filter((_, i) => greetings[i].startsWith('220 '))
    const refused = greetings.filter((g) => g.startsWith('421 '))
    expect(served).toHaveLength(3)
    expect(refused).toHaveLength(7)
    expect(refused[0]).toBe('421 mx.veilmail.test 4.7.0 Too many connections from your address, try again later')
    await Promise.all(conns.filter((c) => !served.includes(c)).map((c) => c.closed))

    served[0].socket.destroy()
    await served[0].closed
    await expect.poll(async () => {
      const c = connect(port)
      const greeting = await c.line(1)
      c.socket.destroy()
      await c.closed
      return greeting
    }).toMatch(/^220 /)
    for (const c of served) c.socket.destroy()
  })

  it('refuses connections past MX_MAX_CLIENTS with 421 and a reason', async () => {
    const port = await mxWith({ MX_MAX_CLIENTS: '2', MX_MAX_CONNECTIONS_PER_IP: '50' })
    const conns = Array.from({ length: 6 }, () => connect(port))
    const greetings = await Promise.all(conns.map((c) => c.line(1)))
    expect(greetings.filter((g) => g.startsWith('220 '))).toHaveLength(2)
    const refused = greetings.filter((g) => g.startsWith('421 '))
    expect(refused).toHaveLength(4)
    expect(refused[0]).toMatch(/^421 mx\.veilmail\.test Too many connected clients/)
    for (const c of conns) c.socket.destroy()
  })
})
