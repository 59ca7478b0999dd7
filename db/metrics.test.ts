// /metrics as Prometheus scrapes it: a real listener on loopback, queue figures read from a real
// database, counters from the events the processes log.
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PgBoss } from 'pg-boss'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { freePort } from '../scripts/testing/free-port.ts'
import { createBoss, createQueues, enqueue, queues } from './queues.ts'
import { loadConfig, type Config } from '../lib/config.ts'
import { log, setLogLevel } from '../lib/log.ts'
import { metricsPort, registerQueueMetrics, serveMetrics } from './metrics.ts'

let db: TestDatabase
let boss: PgBoss
beforeAll(async () => {
  db = await createTestDatabase()
  boss = createBoss(db.url, { max: 2, maintenance: false })
  await boss.start()
  await createQueues(boss)
})
afterAll(async () => {
  await boss.stop({ graceful: false })
  await db.drop()
})

const cfg = (port: number, host = '127.0.0.1') => ({ metrics: { port, host } }) as Pick<Config, 'metrics'>

describe('metrics', () => {
  it('serves queue depth and age, job outcomes and latency, MX, submission and sync counts, and RSS on loopback only', async () => {
    registerQueueMetrics(db.sql)
    await enqueue(db.sql, boss, queues.housekeeping, {})
    await enqueue(db.sql, boss, queues.accountCleanup, { userId: randomUUID() })
    await enqueue(db.sql, boss, queues.accountCleanup, { userId: randomUUID() })
    setLogLevel('silent') // counted whatever LOG_LEVEL says
    log.debug('job.done', { queue: 'forward-email', job: 'x', ms: 120 })
    log.warn('job.failed', { queue: 'forward-email', job: 'y', attempt: 0, ms: 3000 })
    log.debug('mx.accepted', { session: 's', recipients: 1, ms: 4 })
    log.info('mx.refused', { session: 's', code: 550 })
    log.info('submission.queued', { session: 's', jobs: 2 })
    log.debug('mx.spam_checked', { session: 's', result: 'ham', score: -0.1 })
    log.warn('mx.spam_check_failed', { session: 's', result: 'timeout' })
    log.info('sync.done', { job: 'j', provider: 'p', added: 3 })
    log.warn('sync.failed', { job: 'j', provider: 'p', kind: 'auth', attempt: 0 })
    log.warn('mailbox_changes.failed', { job: 'j', provider: 'p', kind: 'network', attempt: 0 })
    log.debug('auth.password_checked')
    log.debug('auth.password_checked')
    log.debug('age.scrypt_derived', { logN: 18 })
    setLogLevel('info')

    const port = await freePort()
    const server = (await serveMetrics(cfg(port), 'web'))!
    try {
      expect((server.address() as AddressInfo).address).toBe('127.0.0.1')
      const res = await fetch(`http://127.0.0.1:${port}/metrics`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4')
      const text = await res.text()
      expect(text).toContain('veilmail_queue_jobs{queue="account-cleanup",state="created"} 2')
      expect(text).toContain('veilmail_queue_jobs{queue="housekeeping",state="created"} 1')
      expect(text).toContain('veilmail_queue_jobs{queue="send-email",state="failed"} 0')
      expect(text).toMatch(/veilmail_queue_oldest_job_age_seconds\{queue="account-cleanup",state="created"\} \d/)
      expect(text).toMatch(/veilmail_queue_oldest_due_job_age_seconds\{queue="account-cleanup"\} \d/)
      expect(text).toContain('veilmail_jobs_total{queue="forward-email",outcome="completed"} 1')
      expect(text).toContain('veilmail_jobs_total{queue="forward-email",outcome="failed"} 1')
      expect(text).toContain('veilmail_job_duration_seconds_bucket{le="0.25",queue="forward-email",outcome="completed"} 1')
      expect(text).toContain('veilmail_job_duration_seconds_bucket{le="2.5",queue="forward-email",outcome="failed"} 0')
      expect(text).toContain('veilmail_mx_messages_total{outcome="accepted",code="250"} 1')
      expect(text).toContain('veilmail_mx_messages_total{outcome="refused",code="550"} 1')
      expect(text).toContain('veilmail_spam_checks_total{result="ham"} 1')
      expect(text).toContain('veilmail_spam_checks_total{result="timeout"} 1')
      expect(text).toContain('veilmail_submission_messages_total 1')
      expect(text).toContain('veilmail_submission_jobs_total 2')
      expect(text).toContain('veilmail_sync_runs_total{job="sync",outcome="done"} 1')
      expect(text).toContain('veilmail_sync_runs_total{job="sync",outcome="failed"} 1')
      expect(text).toContain('veilmail_sync_runs_total{job="changes",outcome="failed"} 1')
      expect(text).toContain('veilmail_sync_errors_total{job="sync",kind="auth"} 1')
      expect(text).toContain('veilmail_sync_errors_total{job="changes",kind="network"} 1')
      expect(text).toContain('veilmail_password_checks_total 2')
      expect(text).toContain('veilmail_scrypt_derivations_total 1')
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404)
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404)
    } finally {
      server.close()
    }
  })

  it('gives each process its own port from METRICS_PORT, off at 0, loopback unless told, and survives a taken port', async () => {
    const base = { DATA_DIR: '/tmp/veilmail-metrics-test', SECRET_KEY: 'x'.repeat(40) }
    const defaults = loadConfig(base)
    expect(defaults.metrics).toEqual({ port: 9464, host: '127.0.0.1' })
    expect(['web', 'mx', 'delivery', 'submission', 'sync'].map((p) => metricsPort(defaults, p))).toEqual([9464, 9465, 9466, 9467, 9468])
    expect(metricsPort(loadConfig({ ...base, METRICS_PORT: '0' }), 'delivery')).toBeUndefined()
    expect(() => loadConfig({ ...base, METRICS_PORT: '65534' })).toThrow(/METRICS_PORT: must leave room/)
    expect(() => loadConfig({ ...base, METRICS_PORT: '65532' })).toThrow(/METRICS_PORT: must leave room/) // sync would be 65536
    expect(metricsPort(loadConfig({ ...base, METRICS_PORT: '65531' }), 'sync')).toBe(65535)
    expect(() => loadConfig({ ...base, LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/)
    expect(loadConfig({ ...base, LOG_FORMAT: 'logfmt' }).logFormat).toBe('logfmt')

    const port = await freePort()
    const first = (await serveMetrics(cfg(port), 'web'))!
    try {
      setLogLevel('silent')
      expect(await serveMetrics(cfg(port), 'web')).toBeUndefined() // logged, not fatal
      setLogLevel('info')
      expect(await serveMetrics(cfg(0), 'web')).toBeUndefined()
    } finally {
      first.close()
    }
  })
})
