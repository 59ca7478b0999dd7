// DELIVERY_PROCESSES: the real `delivery` process (node workers/delivery/delivery.ts) as the
// primary of two delivery processes, each consuming the queues, against a real relay.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { queues } from '../../db/queues.ts'
import { deliveryEnv, productionQueuePolicy } from '../../scripts/testing/delivery-processes.ts'
import { alive, heartbeatPids, killCluster, untilLogged } from '../../scripts/testing/cluster-processes.ts'
import { freePort } from '../../scripts/testing/free-port.ts'
import { checkMetrics, promtoolAvailable } from '../../scripts/testing/promtool.ts'
import { createMailEnv, type MailEnv, type TestAlias } from '../../scripts/testing/mail-env.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'
import { concurrencyPerQueue } from './delivery-worker.ts'

let env: MailEnv
let alias: TestAlias
let delivery: ChildProcess
let metricsPort: number

const deliveryPids = () => heartbeatPids(env.db.sql, 'delivery')

/** How many times the relay got the forward of each of these subjects. */
function relayed(subjects: string[]): number[] {
  return subjects.map((s) => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${s}\r\n`)).length)
}

/** Deliveries marked sent (a sent delivery is counted once, in the transaction that marks it). */
async function sentDeliveries(): Promise<number> {
  return (await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.forwarded ?? 0
}

/** The metric of forwards completed, summed over the delivery processes. */
async function completedForwards(): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
  return Number(/veilmail_jobs_total\{queue="forward-email",outcome="completed"\} (\d+)/.exec(metrics)?.[1])
}

async function sendMany(label: string, count: number): Promise<string[]> {
  const subjects = Array.from({ length: count }, (_, i) => `${label} ${i}`)
  for (const subject of subjects) await env.send({ to: alias.address, subject })
  return subjects
}

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  await productionQueuePolicy(env, queues.forwardEmail) // a lost job comes back by the queue's own heartbeat
  alias = await env.createAlias('me@real.test')
  metricsPort = await freePort()
  delivery = spawn(process.execPath, [path.join(import.meta.dirname, 'delivery.ts')], {
    env: {
      PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', SECRET_KEY: TEST_SECRET_KEY, ...deliveryEnv(env),
      DELIVERY_PROCESSES: '2', DELIVERY_CONCURRENCY: '2', METRICS_PORT: String(metricsPort - 2), // 16 forwards at once per process
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await untilLogged(delivery, 'delivery.started')
}, 60_000)

afterAll(async () => {
  await killCluster(delivery, deliveryPids)
  await env?.close()
})

describe('DELIVERY_PROCESSES', () => {
  it('runs that many delivery processes, which forward each message once, and their metrics add up', async () => {
    await expect.poll(deliveryPids, { timeout: 20_000 }).toHaveLength(2)
    expect((await deliveryPids()).every((pid) => pid !== delivery.pid)).toBe(true)

    const subjects = await sendMany('first', 30)
    await expect.poll(() => relayed(subjects).every((n) => n > 0), { timeout: 30_000 }).toBe(true)
    expect(relayed(subjects)).toEqual(subjects.map(() => 1))
    // the relay hears the message just before the delivery commits as sent
    await expect.poll(sentDeliveries, { timeout: 10_000 }).toBe(30)

    // a job is counted once pg-boss has its result, after the commit that marks it sent
    await expect.poll(completedForwards, { timeout: 10_000 }).toBe(30)
    // the primary's sum of its processes' registries passes Prometheus's own linter
    if (promtoolAvailable()) {
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
      expect(await checkMetrics(metrics)).toEqual({ code: 0, output: '' })
    }
  }, 60_000)

  it('starts a delivery process killed mid-backlog again, loses none of its jobs, and SIGTERM stops them all', async () => {
    const before = await deliveryPids()
    expect(before).toHaveLength(2)
    const subjects = await sendMany('second', 40)
    // killed while the backlog is going out: the jobs it held come back when their heartbeat lapses
    await expect.poll(() => relayed(subjects).filter((n) => n > 0).length, { timeout: 30_000 }).toBeGreaterThan(0)
    process.kill(before[0], 'SIGKILL')
    await expect.poll(async () => (await deliveryPids()).filter((pid) => !before.includes(pid)), { timeout: 30_000 }).toHaveLength(1)

    // every forward marked sent: those the killed process held went again by then
    await expect.poll(sentDeliveries, { timeout: 60_000 }).toBe(70)
    // A message the killed process had handed to the relay before it could mark it sent goes again
    // (the same Message-ID, delivery-step.ts): at most the forwards it was running, once more each.
    const counts = relayed(subjects)
    expect(counts.every((n) => n === 1 || n === 2)).toBe(true)
    expect(counts.filter((n) => n === 2).length).toBeLessThanOrEqual(concurrencyPerQueue(2)[queues.forwardEmail.name])

    const pids = (await deliveryPids()).filter(alive)
    expect(pids).toHaveLength(2)
    const exited = new Promise<number | null>((resolve) => delivery.once('exit', resolve))
    delivery.kill('SIGTERM')
    expect(await exited).toBe(0)
    await expect.poll(() => pids.filter(alive), { timeout: 15_000 }).toEqual([])
  }, 120_000)
})
