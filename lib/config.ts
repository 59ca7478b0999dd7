// Every environment variable (README, Configuration), read and validated once. A bad value stops the
// process with a message naming the variable.
import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import * as v from 'valibot'
import { DEFAULT_DATA_DIR } from './data-dir.ts'

const Port = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a port number'), v.transform(Number), v.minValue(0), v.maxValue(65535))
const Bool = v.pipe(v.picklist(['true', 'false', '1', '0', ''], 'must be true or false'), v.transform((s) => s === 'true' || s === '1'))
const Url = v.pipe(v.string(), v.url('must be a URL'))
const PositiveInt = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1))
/** `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53` */
function isDnsServer(s: string): boolean {
  const m = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i.exec(s) ?? /^([0-9.]+)(?::(\d{1,5}))?$/.exec(s) ?? /^([0-9a-f:]+)()$/i.exec(s)
  return !!m && isIP(m[1]) !== 0 && (!m[2] || Number(m[2]) <= 65535)
}
const Domain = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: v.optional(Port, '3000'),
  PUBLIC_URL: v.optional(Url),
  DATA_DIR: v.optional(v.pipe(v.string(), v.nonEmpty()), DEFAULT_DATA_DIR),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
  EMBEDDED_PG_PORT: v.optional(Port, '54329'),
  SECRET_KEY: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  MAIL_DOMAINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean)),
      v.minLength(1, 'must name at least one domain'),
      v.check((ds) => ds.every((d) => Domain.test(d)), 'must be comma-separated domain names'),
    ),
    'veilmail.test,veil.test',
  ),
  MX_PORT: v.optional(Port, '2525'),
  MX_HOST: v.optional(v.pipe(v.string(), v.nonEmpty()), '127.0.0.1'),
  SUBMISSION_PORT: v.optional(Port, '2587'),
  SUBMISSION_TLS_PORT: v.optional(Port, '2465'),
  SMTP_PUBLIC_HOST: v.optional(v.pipe(v.string(), v.nonEmpty())),
  // The submission ports mail clients must use, when a proxy or NAT maps 587/465 to ours.
  SUBMISSION_PUBLIC_PORT: v.optional(Port),
  SUBMISSION_TLS_PUBLIC_PORT: v.optional(Port),
  TLS_CERT_FILE: v.optional(v.string()),
  TLS_KEY_FILE: v.optional(v.string()),
  OUTBOUND_SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'))),
  MAX_MESSAGE_BYTES: v.optional(PositiveInt, '26214400'),
  ALLOW_PRIVATE_NETWORKS: v.optional(Bool, 'false'),
  // Mail pipeline (issue #4): MX host name (banner, Received, Authentication-Results), its client
  // cap, DNS timeout for SPF/DKIM/DMARC, DKIM keys, the largest attachment a webhook carries inline.
  MX_HOSTNAME: v.optional(v.pipe(v.string(), v.regex(Domain, 'must be a host name'))),
  MX_MAX_CLIENTS: v.optional(PositiveInt, '200'),
  DNS_TIMEOUT_MS: v.optional(PositiveInt, '3000'),
  RSPAMD_URL: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\/[^/?#]+\/?$/, 'must be an http:// URL of rspamd\'s normal worker, e.g. http://127.0.0.1:11333'))),
  // under the MX's 120 s idle limit, which would otherwise close the session while it waits
  RSPAMD_TIMEOUT_MS: v.optional(v.pipe(PositiveInt, v.maxValue(100_000, 'must be at most 100000 (the MX closes a session silent for 120 s)')), '10000'),
  // Throughput: connections per client address at the MX, the pause before its
  // greeting (0 = none; >0 refuses clients that talk first), DNS servers (host[:port], comma
  // separated; unset = the system's), connections kept open to the relay.
  MX_MAX_CONNECTIONS_PER_IP: v.optional(PositiveInt, '20'),
  MX_GREET_PAUSE_MS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.maxValue(30_000)), '0'),
  // MX processes sharing MX_PORT (one Node process works on one core; Postfix runs many smtpd)
  MX_PROCESSES: v.optional(v.pipe(PositiveInt, v.maxValue(64)), '1'),
  DNS_SERVERS: v.optional(v.pipe(
    v.string(),
    v.transform((s) => s.split(',').map((d) => d.trim()).filter(Boolean)),
    v.check((list) => list.every(isDnsServer), 'must be comma-separated IP addresses, each with an optional :port ([v6]:port)'),
  )),
  OUTBOUND_SMTP_CONNECTIONS: v.optional(PositiveInt),
  DKIM_KEYS_DIR: v.optional(v.pipe(v.string(), v.nonEmpty())),
  DKIM_SELECTOR: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i, 'must be a DNS label')), 'veilmail'),
  WEBHOOK_ATTACHMENT_MAX_BYTES: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number)), '1048576'),
  DELIVERY_CONCURRENCY: v.optional(PositiveInt, '8'),
  DELIVERY_POLL_SECONDS: v.optional(PositiveInt, '10'),
  // delivery processes, each consuming every queue (one Node process works on one core)
  DELIVERY_PROCESSES: v.optional(v.pipe(PositiveInt, v.maxValue(64)), '1'),
  // Jobs at once per queue in one delivery process, for the queues named: `send-email=64,forward-email=16`.
  QUEUE_CONCURRENCY: v.optional(v.pipe(
    v.string(),
    v.regex(/^[a-z-]+=[1-9]\d*(,[a-z-]+=[1-9]\d*)*$/, 'must be queue=count, comma separated'),
    v.transform((s) => Object.fromEntries(s.split(',').map((part) => part.split('=')).map(([name, n]) => [name, Number(n)]))),
  )),
  GOOGLE_CLIENT_ID: v.optional(v.string()),
  GOOGLE_CLIENT_SECRET: v.optional(v.string()),
  // Where the Google OpenID endpoints live; tests point these at a local stand-in server.
  GOOGLE_AUTH_URL: v.optional(Url, 'https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: v.optional(Url, 'https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: v.optional(Url, 'https://openidconnect.googleapis.com/v1/userinfo'),
  MICROSOFT_CLIENT_ID: v.optional(v.string()),
  MICROSOFT_CLIENT_SECRET: v.optional(v.string()),
  // Outlook (OAuth2, tenant `common`): Microsoft's endpoints and Outlook's IMAP server; tests point them at local stand-ins.
  MICROSOFT_AUTH_URL: v.optional(Url, 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize'),
  MICROSOFT_TOKEN_URL: v.optional(Url, 'https://login.microsoftonline.com/common/oauth2/v2.0/token'),
  MICROSOFT_IMAP_HOST: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9.-]+$/i, 'must be a host name or address')), 'outlook.office365.com'),
  MICROSOFT_IMAP_PORT: v.optional(Port, '993'),
  // Outgoing mail: how long a queued e-mail can still be cancelled, and the first retry delay
  // (doubled at each attempt) after a temporary failure.
  UNDO_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number)), '10'),
  EMAIL_RETRY_DELAY_SECONDS: v.optional(PositiveInt, '30'),
  // Override rate limits: comma-separated `action=count/seconds`, e.g. `register-ip=5/3600`.
  RATE_LIMITS: v.optional(v.pipe(v.string(), v.regex(/^([a-z-]+=\d+\/\d+)(,[a-z-]+=\d+\/\d+)*$/, 'must be action=count/seconds, comma separated'))),
  // Sign-in spacing per account (issue 11): the first wait after the free failures doubles up to the longest.
  LOGIN_DELAY_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+\/\d+$/, 'must be first/longest in seconds, e.g. 1/300'), v.transform((s) => s.split('/').map(Number)), v.check(([first, longest]) => first >= 1 && first <= longest, 'must be first/longest with 1 ≤ first ≤ longest')), '1/300'),
  // Behind reverse proxies: how many (or which) proxies in front write X-Forwarded-For.
  TRUST_PROXY: v.optional(v.pipe(v.string(), v.transform(trustProxy), v.check((t) => t !== undefined, 'must be false, true, a number of proxies, or proxy addresses/CIDRs, comma separated')), 'false'),
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  // Where mail to postmaster@ and abuse@ each mail domain is forwarded (RFC 5321 §4.5.1, RFC 2142).
  OPERATOR_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[^\s@<>"(),;:]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be an e-mail address'))),
  LOG_FORMAT: v.optional(v.picklist(['json', 'logfmt']), 'json'),
  // Prometheus /metrics: web on METRICS_PORT, mx +1, delivery +2, submission +3, sync +4; 0 turns it off.
  METRICS_PORT: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a port number'), v.transform(Number), v.maxValue(65531, 'must leave room for the four ports after it')), '9464'),
  METRICS_HOST: v.optional(v.pipe(v.string(), v.nonEmpty()), '127.0.0.1'),
  // Webmail sync: how often each active mailbox is synced, mailboxes synced at once
  // by one sync process, and how long an IMAP server may stay silent.
  SYNC_INTERVAL_SECONDS: v.optional(PositiveInt, '300'),
  SYNC_CONCURRENCY: v.optional(PositiveInt, '4'),
  // sync processes the `sync` process forks (one Node process works on one core), each syncing
  // SYNC_CONCURRENCY mailboxes at once
  SYNC_PROCESSES: v.optional(v.pipe(PositiveInt, v.maxValue(64)), '1'),
  IMAP_TIMEOUT_SECONDS: v.optional(PositiveInt, '30'),
  // One sync of one account gives up its slot after this long and goes on in a new job at the back
  // of the queue; each IMAP command may take four times IMAP_TIMEOUT_SECONDS.
  SYNC_SLICE_SECONDS: v.optional(PositiveInt, '300'),
  // IMAP IDLE for open inboxes: connections one sync process holds at most (0: none), and how
  // long after a user's last GET /api/emails their accounts are watched.
  SYNC_IDLE_CONNECTIONS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number (0 turns IDLE off)'), v.transform(Number)), '100'),
  SYNC_IDLE_ACTIVE_SECONDS: v.optional(PositiveInt, '300'),
  // Inbox search: how long the words in bodies may be searched for on the user's IMAP servers;
  // an account whose server has not answered by then is left out of the results and named.
  SEARCH_TIMEOUT_SECONDS: v.optional(v.pipe(PositiveInt, v.maxValue(60)), '6'),
})

export type Config = ReturnType<typeof buildConfig>

function buildConfig(env: NodeJS.ProcessEnv) {
  const raw = Object.fromEntries(Object.entries(env).filter(([k, val]) => k in EnvSchema.entries && val !== undefined && val !== ''))
  const parsed = v.safeParse(EnvSchema, raw)
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => {
      const name = issue.path?.[0]?.key ?? 'environment'
      return `  ${String(name)}: ${issue.message} (got ${JSON.stringify(String(issue.input))})`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.output
  const production = e.NODE_ENV === 'production'
  const dataDir = path.resolve(e.DATA_DIR)
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  if (production && !e.SECRET_KEY) throw new ConfigError('Invalid configuration:\n  SECRET_KEY: is required in production')
  if (production && !e.DATABASE_URL) throw new ConfigError('Invalid configuration:\n  DATABASE_URL: is required in production')
  if (e.OPERATOR_EMAIL && /^(postmaster|abuse)@/.test(e.OPERATOR_EMAIL) && e.MAIL_DOMAINS.includes(e.OPERATOR_EMAIL.split('@')[1])) {
    throw new ConfigError('Invalid configuration:\n  OPERATOR_EMAIL: must not be postmaster@ or abuse@ one of MAIL_DOMAINS (a loop)')
  }
  return {
    production,
    port: e.PORT,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    secretKey: e.SECRET_KEY ?? developmentSecret(dataDir),
    mailDomains: e.MAIL_DOMAINS,
    mx: { host: e.MX_HOST, port: e.MX_PORT },
    submission: { port: e.SUBMISSION_PORT, tlsPort: e.SUBMISSION_TLS_PORT },
    smtpPublicHost: e.SMTP_PUBLIC_HOST ?? `smtp.${e.MAIL_DOMAINS[0]}`,
    smtpPublicPorts: { starttls: e.SUBMISSION_PUBLIC_PORT ?? e.SUBMISSION_PORT, tls: e.SUBMISSION_TLS_PUBLIC_PORT ?? e.SUBMISSION_TLS_PORT },
    tls: { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE },
    outboundSmtpUrl: e.OUTBOUND_SMTP_URL,
    maxMessageBytes: e.MAX_MESSAGE_BYTES,
    mxHostname: e.MX_HOSTNAME ?? `mx.${e.MAIL_DOMAINS[0]}`,
    mxMaxClients: e.MX_MAX_CLIENTS,
    dnsTimeoutMs: e.DNS_TIMEOUT_MS,
    rspamdUrl: e.RSPAMD_URL?.replace(/\/$/, ''),
    rspamdTimeoutMs: e.RSPAMD_TIMEOUT_MS,
    dnsServers: e.DNS_SERVERS,
    mxMaxConnectionsPerIp: e.MX_MAX_CONNECTIONS_PER_IP,
    mxGreetPauseMs: e.MX_GREET_PAUSE_MS,
    mxProcesses: e.MX_PROCESSES,
    outboundSmtpConnections: e.OUTBOUND_SMTP_CONNECTIONS ?? 4 * e.DELIVERY_CONCURRENCY,
    dkim: { keysDir: e.DKIM_KEYS_DIR ? path.resolve(e.DKIM_KEYS_DIR) : undefined, selector: e.DKIM_SELECTOR },
    webhookAttachmentMaxBytes: e.WEBHOOK_ATTACHMENT_MAX_BYTES,
    delivery: { concurrency: e.DELIVERY_CONCURRENCY, pollSeconds: e.DELIVERY_POLL_SECONDS, queueConcurrency: e.QUEUE_CONCURRENCY ?? {}, processes: e.DELIVERY_PROCESSES },
    allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS,
    google: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
      ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, authUrl: e.GOOGLE_AUTH_URL, tokenUrl: e.GOOGLE_TOKEN_URL, userInfoUrl: e.GOOGLE_USERINFO_URL }
      : undefined,
    microsoft: e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET
      ? {
        clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET, authUrl: e.MICROSOFT_AUTH_URL, tokenUrl: e.MICROSOFT_TOKEN_URL,
        imap: { host: e.MICROSOFT_IMAP_HOST, port: e.MICROSOFT_IMAP_PORT },
      }
      : undefined,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST },
    rateLimits: rateLimits(e.RATE_LIMITS),
    undoSeconds: e.UNDO_SECONDS,
    emailRetryDelaySeconds: e.EMAIL_RETRY_DELAY_SECONDS,
    trustProxy: e.TRUST_PROXY!,
    operatorEmail: e.OPERATOR_EMAIL,
    loginDelay: { firstSeconds: e.LOGIN_DELAY_SECONDS[0], maxSeconds: e.LOGIN_DELAY_SECONDS[1] },
    sync: {
      intervalSeconds: e.SYNC_INTERVAL_SECONDS, concurrency: e.SYNC_CONCURRENCY, imapTimeoutMs: e.IMAP_TIMEOUT_SECONDS * 1000,
      commandTimeoutMs: e.IMAP_TIMEOUT_SECONDS * 4000, sliceMs: e.SYNC_SLICE_SECONDS * 1000, processes: e.SYNC_PROCESSES,
    },
    syncIdle: { connections: e.SYNC_IDLE_CONNECTIONS, activeSeconds: e.SYNC_IDLE_ACTIVE_SECONDS },
    search: { imapBudgetMs: e.SEARCH_TIMEOUT_SECONDS * 1000 },
  }
}

/** Limits per action: how many in how many seconds. Every threshold lives here. */
export const DEFAULT_RATE_LIMITS = {
  'login-account': { limit: 10, seconds: 15 * 60 }, // sign-in failures for one e-mail before waits (LOGIN_DELAY_SECONDS) begin; forgotten after `seconds`
  'login-ip': { limit: 50, seconds: 15 * 60 }, // failed sign-ins (password, wallet, Google) from one address
  'second-factor-account': { limit: 10, seconds: 15 * 60 }, // wrong one-time or recovery codes for one account (sign-in, enrolment, turning off)
  'second-factor-ip': { limit: 30, seconds: 15 * 60 }, // wrong one-time or recovery codes from one address
  'webauthn-ip': { limit: 300, seconds: 15 * 60 }, // passkey challenges handed to one address (each view of the sign-in form asks for one, for the autofill offer)
  'register-ip': { limit: 20, seconds: 60 * 60 },
  'wallet-ip': { limit: 30, seconds: 15 * 60 },
  'alias-create': { limit: 30, seconds: 60 * 60 }, // alias creations per user
  'domain-user': { limit: 60, seconds: 60 * 60 }, // custom domains added or checked (each makes a key or asks DNS) per user
  'first-use-domain': { limit: 100, seconds: 60 * 60 }, // aliases made on first use (catch-all, personal subdomain) per domain; past it the MX answers 450 4.7.1
  'api-key-ip': { limit: 30, seconds: 15 * 60 }, // wrong API keys from one address (the native and compat APIs)
  'decrypt-user': { limit: 20, seconds: 60 }, // server-side age passphrase decryptions
  'mail-search-user': { limit: 60, seconds: 60 }, // searches of message bodies per user: each asks every account's IMAP server (past it, stored matches only)
  'smtp-auth-ip': { limit: 10, seconds: 15 * 60 }, // failed SMTP AUTH
  'smtp-send-credential': { limit: 200, seconds: 60 * 60 },
  'mail-address': { limit: 5, seconds: 60 * 60 }, // account mails (verify, reset, notices, target confirmation) to one address
  'mail-ip': { limit: 20, seconds: 60 * 60 }, // resend-verification and forgot-password requests from one address
  'token-ip': { limit: 30, seconds: 15 * 60 }, // verification, reset and confirmation links used from one address; refused unsubscribe and block links (issue 30)
  'confirm-user': { limit: 20, seconds: 60 * 60 }, // forward-target confirmation mails per user
  'recipients-hour': { limit: 200, seconds: 60 * 60 }, // recipients per user (compose and submission)
  'recipients-day': { limit: 1000, seconds: 24 * 60 * 60 },
} satisfies Record<string, RateLimitRule>
export interface RateLimitRule { limit: number; seconds: number }
export type RateLimitAction = keyof typeof DEFAULT_RATE_LIMITS

function rateLimits(spec: string | undefined): Record<RateLimitAction, RateLimitRule> {
  const rules: Record<string, RateLimitRule> = { ...DEFAULT_RATE_LIMITS }
  for (const part of spec ? spec.split(',') : []) {
    const [name, value] = part.split('=')
    if (!(name in rules)) throw new ConfigError(`Invalid configuration:\n  RATE_LIMITS: unknown action ${name} (known: ${Object.keys(rules).join(', ')})`)
    const [limit, seconds] = value.split('/').map(Number)
    rules[name] = { limit, seconds }
  }
  return rules as Record<RateLimitAction, RateLimitRule>
}

/**
 * Which X-Forwarded-For hops to believe: `{ hops: n }` = n proxies in front (false = 0, true = 1),
 * or `{ proxies }` = the addresses/CIDRs of our proxies. Undefined when the value is neither.
 */
export type TrustProxy = { hops: number } | { proxies: string[] }
function trustProxy(value: string): TrustProxy | undefined {
  const s = value.trim().toLowerCase()
  if (s === 'false' || s === '') return { hops: 0 }
  if (s === 'true') return { hops: 1 }
  if (/^\d{1,2}$/.test(s)) return { hops: Number(s) }
  const proxies = s.split(',').map((p) => p.trim())
  const valid = (p: string) => {
    const [address, prefix, extra] = p.split('/')
    const family = isIP(address)
    if (!family || extra !== undefined) return false
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  }
  return proxies.every(valid) ? { proxies } : undefined
}

export class ConfigError extends Error {}

/** Outside production the master secret is generated once and kept in DATA_DIR. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret-key')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(dataDir, { recursive: true })
    const secret = randomBytes(32).toString('base64url')
    try {
      writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' })
      return secret
    } catch {
      return readFileSync(file, 'utf8').trim() // another process wrote it first
    }
  }
}

let cached: Config | undefined

/** `.env` in the working directory is honoured; real environment variables win over it. */
function loadDotEnv() {
  try {
    process.loadEnvFile('.env')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(`Invalid configuration:\n  .env: ${(error as Error).message}`)
  }
}

/** The process configuration; exits with a clear message when a variable is wrong. */
export function config(): Config {
  if (cached) return cached
  try {
    loadDotEnv()
    cached = buildConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + '\n')
      process.exit(78) // EX_CONFIG
    }
    throw error
  }
  return cached
}

export const loadConfig = buildConfig
