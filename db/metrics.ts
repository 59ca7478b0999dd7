// Prometheus metrics (prom-client), one registry per process, served on its own loopback port:
// web on METRICS_PORT, mx on +1, delivery on +2, submission on +3, sync on +4 (README, Operations). Counters
// follow the events the code already logs (lib/log.ts), so no handler carries metrics code.
import { createServer, type Server } from 'node:http'
import client from 'prom-client'
import type { Db } from './client.ts'
import { countJobsByQueue, JOB_STATES } from './queue-stats.ts'
import type { Config } from '../lib/config.ts'
import { errorFields, log, onLogEvent } from '../lib/log.ts'

export const METRICS_PORT_OFFSET: Record<string, number> = { web: 0, mx: 1, delivery: 2, submission: 3, sync: 4 }

export const registry = new client.Registry()
client.collectDefaultMetrics({ register: registry }) // process_resident_memory_bytes, CPU, event loop lag, heap
// prom-client also adds nodejs_active_{handles,requests,resources}_total: gauges with a counter's
// suffix, which `promtool check metrics` refuses (a _total must be a counter). They are the sums of
// the by-type gauges kept here (sum(nodejs_active_handles) gives the same figure), so they go.
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name)

const jobs = new client.Counter({
  name: 'veilmail_jobs_total',
  help: 'Queue jobs (deliveries, sends, webhooks, housekeeping) finished by this process, by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
})
const jobSeconds = new client.Histogram({
  name: 'veilmail_job_duration_seconds',
  help: 'Time a job handler ran, by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
})
const mxMessages = new client.Counter({
  name: 'veilmail_mx_messages_total',
  help: 'Messages offered to the MX, by outcome (accepted, refused) and SMTP reply code',
  labelNames: ['outcome', 'code'] as const,
  registers: [registry],
})
const spamChecks = new client.Counter({
  name: 'veilmail_spam_checks_total',
  help: 'Messages the MX had rspamd score, by result: ham, spam, reject, soft_reject; unavailable, timeout, error (accepted unscored: fail open)',
  labelNames: ['result'] as const,
  registers: [registry],
})
const submissions = new client.Counter({
  name: 'veilmail_submission_messages_total',
  help: 'Messages accepted by the submission server',
  registers: [registry],
})
const submissionJobs = new client.Counter({
  name: 'veilmail_submission_jobs_total',
  help: 'Email jobs queued by the submission server (one per recipient)',
  registers: [registry],
})
const syncRuns = new client.Counter({
  name: 'veilmail_sync_runs_total',
  help: 'Mailbox syncs (sync) and flag write-backs (changes) run by the sync process, by outcome',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
})
const syncErrors = new client.Counter({
  name: 'veilmail_sync_errors_total',
  help: 'Failed mailbox syncs and write-backs by kind of IMAP failure (auth, tls, timeout, refused, ...)',
  labelNames: ['job', 'kind'] as const,
  registers: [registry],
})
const passwordChecks = new client.Counter({
  name: 'veilmail_password_checks_total',
  help: 'argon2id password verifications (sign-ins, SMTP logins; an unknown account costs one too)',
  registers: [registry],
})
const scryptDerivations = new client.Counter({
  name: 'veilmail_scrypt_derivations_total',
  help: 'scrypt key derivations for age passphrases (locking or unlocking a stored private key)',
  registers: [registry],
})

onLogEvent((_level, event, fields) => {
  const queue = String(fields.queue ?? '')
  if (event === 'job.done' || event === 'job.failed') {
    const outcome = event === 'job.done' ? 'completed' : 'failed'
    jobs.inc({ queue, outcome })
    if (typeof fields.ms === 'number') jobSeconds.observe({ queue, outcome }, fields.ms / 1000)
  } else if (event === 'job.invalid_payload') {
    jobs.inc({ queue, outcome: 'invalid' })
  } else if (event === 'mx.accepted') {
    mxMessages.inc({ outcome: 'accepted', code: '250' })
  } else if (event === 'mx.refused') {
    mxMessages.inc({ outcome: 'refused', code: String(fields.code ?? 'unknown') })
  } else if (event === 'mx.spam_checked' || event === 'mx.spam_check_failed') {
    spamChecks.inc({ result: String(fields.result ?? 'unknown') })
  } else if (event === 'submission.queued') {
    submissions.inc()
    if (typeof fields.jobs === 'number') submissionJobs.inc(fields.jobs)
  } else if (event === 'auth.password_checked') {
    passwordChecks.inc()
  } else if (event === 'age.scrypt_derived') {
    scryptDerivations.inc()
  } else if (event === 'sync.done' || event === 'mailbox_changes.done') {
    syncRuns.inc({ job: event === 'sync.done' ? 'sync' : 'changes', outcome: 'done' })
  } else if (event === 'sync.failed' || event === 'mailbox_changes.failed') {
    const job = event === 'sync.failed' ? 'sync' : 'changes'
    syncRuns.inc({ job, outcome: 'failed' })
    syncErrors.inc({ job, kind: String(fields.kind ?? 'unknown') })
  }
})

/** Queue depth and oldest-job age per queue and state, read from Postgres at each scrape (web only). */
export function registerQueueMetrics(db: Db): void {
  // one read serves the three gauges of a scrape
  let pending: Promise<void> | undefined
  const collect = () => refresh()
  const depth = new client.Gauge({ name: 'veilmail_queue_jobs', help: 'Jobs in each queue by state', labelNames: ['queue', 'state'] as const, registers: [registry], collect })
  const age = new client.Gauge({ name: 'veilmail_queue_oldest_job_age_seconds', help: 'Age of the oldest job in each queue and state', labelNames: ['queue', 'state'] as const, registers: [registry], collect })
  const due = new client.Gauge({ name: 'veilmail_queue_oldest_due_job_age_seconds', help: 'How long the oldest due job (created or retry, start time passed) has waited', labelNames: ['queue'] as const, registers: [registry], collect })
  const refresh = () => (pending ??= countJobsByQueue(db).then((rows) => {
    depth.reset()
    age.reset()
    due.reset()
    for (const row of rows) {
      for (const state of JOB_STATES) {
        depth.set({ queue: row.queue, state }, row.counts[state])
        const oldest = row.oldestSeconds[state]
        if (oldest !== null) age.set({ queue: row.queue, state }, oldest)
      }
      due.set({ queue: row.queue }, row.oldestDueSeconds ?? 0)
    }
  }).finally(() => { pending = undefined }))
}

/** The metrics port of `processName`, or undefined when METRICS_PORT is 0. */
export function metricsPort(cfg: Pick<Config, 'metrics'>, processName: string): number | undefined {
  if (cfg.metrics.port === 0) return undefined
  return cfg.metrics.port + (METRICS_PORT_OFFSET[processName] ?? 0)
}

/**
 * Serves GET /metrics on the process's metrics port, bound to METRICS_HOST (loopback unless set):
 * a listener of its own, never the public app. A port already taken is logged, not fatal.
 */
export async function serveMetrics(cfg: Pick<Config, 'metrics'>, processName: string, options: { cluster?: boolean } = {}): Promise<Server | undefined> {
  const port = metricsPort(cfg, processName)
  if (port === undefined) return undefined
  // the primary of several MX processes (MX_PROCESSES) serves the sum of its workers' registries
  const source = options.cluster ? new client.AggregatorRegistry() : undefined
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n')
      return
    }
    ;(source ? source.clusterMetrics() : registry.metrics()).then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error) => {
        log.warn('metrics.failed', errorFields(error))
        res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable\n')
      },
    )
  })
  return new Promise((resolve) => {
    server.once('error', (error) => {
      log.warn('metrics.unavailable', { port, ...errorFields(error) })
      resolve(undefined)
    })
    server.listen(port, cfg.metrics.host, () => {
      log.info('metrics.listening', { host: cfg.metrics.host, port })
      resolve(server)
    })
  })
}

/** A worker of a cluster (MX_PROCESSES): answers the primary's requests with this process's registry. */
export function shareMetricsWithPrimary(): void {
  client.AggregatorRegistry.setRegistries([registry])
  void new client.AggregatorRegistry() // its constructor installs the worker's listener
}
