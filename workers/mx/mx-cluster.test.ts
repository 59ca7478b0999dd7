import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDnsStandIn, type DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { alive, heartbeatPids, killCluster, untilLogged } from '../../scripts/testing/cluster-processes.ts'
import { freePort } from '../../scripts/testing/free-port.ts'
import { checkMetrics, promtoolAvailable } from '../../scripts/testing/promtool.ts'
import { createMailEnv, type MailEnv, type TestAlias } from '../../scripts/testing/mail-env.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'

let env: MailEnv
let dns: DnsStandIn
let alias: TestAlias
let mx: ChildProcess
let port: number
let metricsPort: number

const mxPids = () => heartbeatPids(env.db.sql, 'mx')

/** The first line the MX writes on a new connection. */
function greeting(): Promise<{ line: string; socket: net.Socket }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    socket.on('error', () => {})
    socket.on('data', (c) => {
      text += c.toString('latin1')
      if (text.includes('\r\n')) resolve({ line: text.split('\r\n')[0], socket })
    })
    socket.on('close', () => resolve({ line: text, socket }))
  })
}

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  dns = await startDnsStandIn()
  alias = await env.createAlias('me@real.test')
  port = await freePort()
  metricsPort = await freePort()
  mx = spawn(process.execPath, [path.join(import.meta.dirname, 'mx.ts')], {
    env: {
      PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, SECRET_KEY: TEST_SECRET_KEY,
      MAIL_DOMAINS: env.config.mailDomains.join(','), MX_HOSTNAME: env.config.mxHostname, MX_HOST: '127.0.0.1', MX_PORT: String(port),
      MX_PROCESSES: '2', MX_MAX_CONNECTIONS_PER_IP: '3', DNS_SERVERS: dns.server, METRICS_PORT: String(metricsPort - 1),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await untilLogged(mx, 'mx.listening')
}, 60_000)

afterAll(async () => {
  await killCluster(mx, mxPids)
  await dns?.close()
  await env?.close()
})

describe('MX_PROCESSES', () => {
  it('runs that many MX processes on one port, the per-address cap counts the connections of all of them, and metrics add up', async () => {
    await expect.poll(mxPids, { timeout: 20_000 }).toHaveLength(2)
    expect((await mxPids()).every((pid) => pid !== mx.pid)).toBe(true)

    // Connections go to the processes in turn: with a cap counted per process, 6 would be served.
    const conns = await Promise.all(Array.from({ length: 10 }, greeting))
    const served = conns.filter((c) => c.line.startsWith('220 '))
    const refused = conns.filter((c) => c.line.startsWith('421 '))
    expect(served).toHaveLength(3)
    expect(refused).toHaveLength(7)
    expect(refused[0].line).toBe('421 mx.veilmail.test 4.7.0 Too many connections from your address, try again later')
    for (const c of conns) c.socket.destroy()

    // Mail through both processes (a new connection each, three at a time) is stored.
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
    for (let round = 0; round < 4; round++) {
      await expect.poll(async () => {
        const results = await Promise.allSettled(Array.from({ length: 3 }, (_, i) => transport.sendMail({
          envelope: { from: 'sender@outside.test', to: [alias.address] },
          raw: `From: sender@outside.test\r\nTo: ${alias.address}\r\nSubject: round ${round} mail ${i}\r\nMessage-ID: <${round}.${i}.${Date.now()}@outside.test>\r\n\r\nHello\r\n`,
        })))
        return results.every((r) => r.status === 'fulfilled')
      }, { timeout: 10_000 }).toBe(true)
    }
    const [{ count }] = await env.db.sql<{ count: number }[]>`select count(*)::int from deliveries where alias_id = ${alias.id}`
    expect(count).toBeGreaterThanOrEqual(12)
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
    const accepted = Number(/veilmail_mx_messages_total\{outcome="accepted"[^}]*\} (\d+)/.exec(metrics)?.[1])
    expect(accepted).toBe(count)
    // the primary's sum of its workers' registries passes Prometheus's own linter too
    if (promtoolAvailable()) expect(await checkMetrics(metrics)).toEqual({ code: 0, output: '' })
  }, 60_000)

  it('starts an MX process that died again, and stops them all on SIGTERM', async () => {
    const before = await mxPids()
    expect(before).toHaveLength(2)
    process.kill(before[0], 'SIGKILL')
    await expect.poll(async () => (await mxPids()).filter((pid) => !before.includes(pid)), { timeout: 20_000 }).toHaveLength(1)
    await expect.poll(async () => (await greeting()).line, { timeout: 10_000 }).toMatch(/^220 /)

    const pids = (await mxPids()).filter(alive)
    const exited = new Promise((resolve) => mx.once('exit', resolve))
    mx.kill('SIGTERM')
    await exited
    await expect.poll(() => pids.filter(alive), { timeout: 15_000 }).toEqual([])
  }, 60_000)
})
