// A whole mail pipeline for one test file: its own database, the MX on a free port, the
// delivery worker in-process (optional), a relay stand-in behind OUTBOUND_SMTP_URL, a webhook
// receiver and an offline DNS that publishes our DKIM keys.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { PgBoss } from 'pg-boss'
import { createApp } from '../../api/app.ts'
import { confirmTarget } from '../../api/aliases/confirm-target.ts'
import { partitionTargets } from '../../shared/alias-target-rules.ts'
import type { Config } from '../../lib/config.ts'
import { loadDkimKeys } from '../../lib/dkim-keys.ts'
import { generateWebhookSecret, sealWebhookSecret } from '../../lib/webhook-secret.ts'
import { createDeliveryDeps, type DeliveryDeps } from '../../workers/delivery/delivery-deps.ts'
import { startDeliveryWorker } from '../../workers/delivery/delivery-worker.ts'
import { createMxServer, type MxServer } from '../../workers/mx/mx-server.ts'
import { createBoss, queues } from '../../db/queues.ts'
import { attachMailbox, type Mailbox } from './mailbox.ts'
import { fakeResolver, startRelay, startWebhookReceiver, type Relay, type WebhookReceiver } from './mail-stand-ins.ts'
import { startDnsStandIn } from './dns-stand-in.ts'
import { testConfig } from './test-app.ts'
import { createTestDatabase, type TestDatabase } from './test-database.ts'

export interface TestAlias {
  id: string
  userId: string
  address: string
  webhookSecret: string
}

export interface SendOptions {
  from?: string
  envelopeFrom?: string
  to: string | string[]
  cc?: string[]
  subject?: string
  text?: string
  headers?: Record<string, string>
  raw?: string | Buffer
}

export interface MailEnv {
  db: TestDatabase
  boss: PgBoss
  config: Config
  resolver: ReturnType<typeof fakeResolver>
  relay: Relay
  webhooks: WebhookReceiver
  mx: MxServer
  mxPort: number
  deps: DeliveryDeps
  /** `host:port` of an offline DNS (NXDOMAIN for every name) for delivery processes (DNS_SERVERS) */
  dnsServer: string
  /** stops the relay (connections refused) until relayUp() starts a new one on the same port */
  relayDown(): Promise<void>
  relayUp(): Promise<Relay>
  /** Where this environment's system mail (verification links, notices) is read: its relay. */
  mailbox: Mailbox
  /** The HTTP app on this environment's database and queue, its system mail readable by ApiClient. */
  app(): ReturnType<typeof createApp>
  /** An alias of a new user; its e-mail targets are confirmed (as following the mailed link does). */
  createAlias(forwardTo: string, options?: { alias?: string; domain?: string }): Promise<TestAlias>
  send(options: SendOptions): Promise<{ accepted: string[]; rejected: string[]; response: string }>
  close(): Promise<void>
}

let counter = 0

export async function createMailEnv(options: { worker?: boolean; concurrency?: number; env?: Record<string, string> } = {}): Promise<MailEnv> {
  const db = await createTestDatabase()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-mail-'))
  const relay = await startRelay()
  const webhooks = await startWebhookReceiver()
  const dns = await startDnsStandIn()
  const config = testConfig({
    DATABASE_URL: db.url, DATA_DIR: dataDir, OUTBOUND_SMTP_URL: relay.url, ALLOW_PRIVATE_NETWORKS: 'true',
    MAIL_DOMAINS: 'veilmail.test,veil.test', MX_HOSTNAME: 'mx.veilmail.test', DNS_TIMEOUT_MS: '500', ...options.env,
  })
  const resolver = fakeResolver()
  for (const key of loadDkimKeys(config).values()) resolver.records[`${key.selector}._domainkey.${key.domain} TXT`] = [[key.dnsRecord]]
  const boss = createBoss(db.url, { max: 6, maintenance: false })
  await boss.start()
  // Retries in seconds, not minutes: the policy is not what these tests are about.
  for (const q of [queues.forwardEmail, queues.forwardWebhook, queues.forwardReply, queues.retryUndelivered]) {
    await boss.updateQueue(q.name, { retryDelay: 1, retryBackoff: false })
  }
  const mx = createMxServer({ sql: db.sql, boss, config, resolver })
  const mxPort = await mx.listen(0, '127.0.0.1')
  // the authentication check the MX leaves to the delivery asks the same offline DNS
  const deps = createDeliveryDeps(db.sql, config, { resolver })
  if (options.worker !== false) await startDeliveryWorker(boss, deps, { concurrency: options.concurrency ?? 2, pollSeconds: 0.5 })

  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort, secure: false, tls: { rejectUnauthorized: false }, pool: true, maxConnections: 2 })

  const env: MailEnv = {
    db, boss, config, resolver, relay, webhooks, mx, mxPort, deps, dnsServer: dns.server,
    mailbox: { sql: db.sql, secretKey: config.secretKey, relay: () => env.relay },
    app() {
      return attachMailbox(createApp({ sql: db.sql, boss, config }), env.mailbox)
    },
    async relayDown() {
      await env.relay.close()
    },
    async relayUp() {
      env.relay = await startRelay(env.relay.port)
      return env.relay
    },
    async createAlias(forwardTo, { alias = `alias${++counter}x${Date.now() % 100000}`, domain = 'veilmail.test' } = {}) {
      const [user] = await db.sql<{ id: string }[]>`insert into users (email, auth_method) values (${`owner${++counter}-${Date.now()}@example.com`}, 'email') returning id`
      const id = crypto.randomUUID()
      const webhookSecret = generateWebhookSecret()
      await db.sql`insert into aliases (id, user_id, alias, domain, forward_to, webhook_secret_sealed)
        values (${id}, ${user.id}, ${alias}, ${domain}, ${forwardTo}, ${sealWebhookSecret(config.secretKey, id, webhookSecret)})`
      for (const email of partitionTargets(forwardTo).emails) await confirmTarget({ sql: db.sql, boss }, user.id, email)
      return { id, userId: user.id, address: `${alias}@${domain}`, webhookSecret }
    },
    async send(o) {
      const to = Array.isArray(o.to) ? o.to : [o.to]
      const envelope = { from: o.envelopeFrom ?? o.from ?? 'sender@outside.example', to: [...to, ...(o.cc ?? [])] }
      const info = o.raw !== undefined
        ? await client.sendMail({ envelope, raw: o.raw })
        : await client.sendMail({
          envelope, from: o.from ?? 'Sam Sender <sender@outside.example>', to, cc: o.cc, subject: o.subject ?? 'Hello', text: o.text ?? 'Hello there', headers: o.headers,
        })
      return { accepted: info.accepted.map(String), rejected: info.rejected.map(String), response: info.response }
    },
    async close() {
      client.close()
      await mx.close()
      await boss.stop({ graceful: true, timeout: 3000 })
      deps.transport.close()
      await env.relay.close()
      await webhooks.close()
      await dns.close()
      await db.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return env
}
