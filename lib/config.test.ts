import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

const base = { SECRET_KEY: 'x'.repeat(40), DATA_DIR: '/tmp/veilmail-config-test' }

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const cfg = loadConfig(base)
    expect(cfg.port).toBe(3000)
    expect(cfg.publicUrl).toBe('http://localhost:3000')
    expect(cfg.mailDomains).toEqual(['veilmail.test', 'veil.test'])
    expect(cfg.mx).toEqual({ host: '127.0.0.1', port: 2525 })
    expect(cfg.submission).toEqual({ port: 2587, tlsPort: 2465 })
    expect(cfg.smtpPublicHost).toBe('smtp.veilmail.test')
    expect(cfg.smtpPublicPorts).toEqual({ starttls: 2587, tls: 2465 })
    expect(cfg.embeddedPgPort).toBe(54329)
    expect(cfg.maxMessageBytes).toBe(26214400)
    expect(cfg.allowPrivateNetworks).toBe(false)
    expect(cfg.google).toBeUndefined()
    expect(cfg.secureCookies).toBe(false)
    expect(cfg.delivery).toEqual({ concurrency: 8, pollSeconds: 10, queueConcurrency: {}, processes: 1 })
    expect(cfg.mxMaxConnectionsPerIp).toBe(20)
    expect(cfg.mxGreetPauseMs).toBe(0)
    expect(cfg.mxProcesses).toBe(1)
    expect(cfg.dnsServers).toBeUndefined()
    expect(cfg.outboundSmtpConnections).toBe(32)
  })

  it('shows mail clients the listening submission ports unless public ones are set', () => {
    expect(loadConfig({ ...base, SUBMISSION_PORT: '1587', SUBMISSION_TLS_PORT: '1465' }).smtpPublicPorts).toEqual({ starttls: 1587, tls: 1465 })
    expect(loadConfig({ ...base, SUBMISSION_PUBLIC_PORT: '587', SUBMISSION_TLS_PUBLIC_PORT: '465' }).smtpPublicPorts).toEqual({ starttls: 587, tls: 465 })
    expect(() => loadConfig({ ...base, SUBMISSION_PUBLIC_PORT: '70000' })).toThrow(/SUBMISSION_PUBLIC_PORT/)
    expect(() => loadConfig({ ...base, SUBMISSION_TLS_PUBLIC_PORT: 'smtps' })).toThrow(/SUBMISSION_TLS_PUBLIC_PORT: must be a port number/)
  })

  it('turns Outlook on only with a client id and secret, with the common-tenant endpoints and Outlook IMAP server by default', () => {
    expect(loadConfig(base).microsoft).toBeUndefined()
    expect(loadConfig({ ...base, MICROSOFT_CLIENT_ID: 'id' }).microsoft).toBeUndefined()
    expect(loadConfig({ ...base, MICROSOFT_CLIENT_ID: 'id', MICROSOFT_CLIENT_SECRET: 'secret' }).microsoft).toEqual({
      clientId: 'id', clientSecret: 'secret',
      authUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize', tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      imap: { host: 'outlook.office365.com', port: 993 },
    })
    expect(() => loadConfig({ ...base, MICROSOFT_TOKEN_URL: 'login.example/token' })).toThrow(/MICROSOFT_TOKEN_URL: must be a URL/)
    expect(() => loadConfig({ ...base, MICROSOFT_IMAP_PORT: 'imaps' })).toThrow(/MICROSOFT_IMAP_PORT: must be a port number/)
    expect(() => loadConfig({ ...base, MICROSOFT_IMAP_HOST: 'outlook.office365.com:993' })).toThrow(/MICROSOFT_IMAP_HOST/)
  })

  it('reads the IMAP IDLE bound (0 turns it off) and the activity window, and refuses anything else', () => {
    expect(loadConfig(base).syncIdle).toEqual({ connections: 100, activeSeconds: 300 })
    expect(loadConfig({ ...base, SYNC_IDLE_CONNECTIONS: '0', SYNC_IDLE_ACTIVE_SECONDS: '60' }).syncIdle).toEqual({ connections: 0, activeSeconds: 60 })
    expect(() => loadConfig({ ...base, SYNC_IDLE_CONNECTIONS: '-1' })).toThrow(/SYNC_IDLE_CONNECTIONS: must be a whole number/)
    expect(() => loadConfig({ ...base, SYNC_IDLE_ACTIVE_SECONDS: '0' })).toThrow(/SYNC_IDLE_ACTIVE_SECONDS/)
  })

  it('reads a concurrency per queue', () => {
    expect(loadConfig({ ...base, QUEUE_CONCURRENCY: 'send-email=64,forward-email=16' }).delivery.queueConcurrency).toEqual({ 'send-email': 64, 'forward-email': 16 })
  })

  it('reads the spam filter settings: rspamd off unless RSPAMD_URL names its HTTP worker, a 10 s timeout', () => {
    expect(loadConfig(base)).toMatchObject({ rspamdUrl: undefined, rspamdTimeoutMs: 10_000 })
    expect(loadConfig({ ...base, RSPAMD_URL: 'http://127.0.0.1:11333/', RSPAMD_TIMEOUT_MS: '2500' })).toMatchObject({ rspamdUrl: 'http://127.0.0.1:11333', rspamdTimeoutMs: 2500 })
    for (const bad of ['127.0.0.1:11333', 'http://127.0.0.1:11333/checkv2', 'smtp://rspamd.example', 'http://rspamd.example/?a=1']) {
      expect(() => loadConfig({ ...base, RSPAMD_URL: bad })).toThrow(/RSPAMD_URL: must be an http:\/\/ URL/)
    }
    for (const bad of ['0', '-5', 'soon', '120000']) expect(() => loadConfig({ ...base, RSPAMD_TIMEOUT_MS: bad })).toThrow(/RSPAMD_TIMEOUT_MS/)
  })

  it('reads the throughput settings and refuses bad DNS servers', () => {
    const cfg = loadConfig({ ...base, DNS_SERVERS: '127.0.0.1:5353, ::1, [2001:db8::53]:53', MX_GREET_PAUSE_MS: '250', OUTBOUND_SMTP_CONNECTIONS: '4' })
    expect(cfg.dnsServers).toEqual(['127.0.0.1:5353', '::1', '[2001:db8::53]:53'])
    expect(cfg.mxGreetPauseMs).toBe(250)
    expect(cfg.outboundSmtpConnections).toBe(4)
    expect(() => loadConfig({ ...base, DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/)
    expect(() => loadConfig({ ...base, DNS_SERVERS: '127.0.0.1:99999' })).toThrow(/DNS_SERVERS/)
    expect(() => loadConfig({ ...base, MX_MAX_CONNECTIONS_PER_IP: '0' })).toThrow(/MX_MAX_CONNECTIONS_PER_IP/)
    expect(loadConfig({ ...base, MX_PROCESSES: '4' }).mxProcesses).toBe(4)
    for (const bad of ['0', '65', 'two']) expect(() => loadConfig({ ...base, MX_PROCESSES: bad })).toThrow(/MX_PROCESSES/)
    expect(loadConfig({ ...base, DELIVERY_PROCESSES: '2' }).delivery.processes).toBe(2)
    for (const bad of ['0', '65', 'two']) expect(() => loadConfig({ ...base, DELIVERY_PROCESSES: bad })).toThrow(/DELIVERY_PROCESSES/)
  })

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ ...base, PORT: 'eighty' })).toThrow(/PORT: must be a port number/)
    expect(() => loadConfig({ ...base, MAIL_DOMAINS: 'not a domain' })).toThrow(/MAIL_DOMAINS/)
    expect(() => loadConfig({ ...base, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(/ALLOW_PRIVATE_NETWORKS/)
    for (const bad of ['send-email', 'send-email=0', 'send-email=2,', 'send-email=-1', 'send email=2']) {
      expect(() => loadConfig({ ...base, QUEUE_CONCURRENCY: bad })).toThrow(/QUEUE_CONCURRENCY: must be queue=count/)
    }
  })

  it('reads OPERATOR_EMAIL as an address that cannot loop back to postmaster@ or abuse@', () => {
    expect(loadConfig(base).operatorEmail).toBeUndefined()
    expect(loadConfig({ ...base, OPERATOR_EMAIL: ' Ops@Operator.Example ' }).operatorEmail).toBe('ops@operator.example')
    expect(() => loadConfig({ ...base, OPERATOR_EMAIL: 'not an address' })).toThrow(/OPERATOR_EMAIL: must be an e-mail address/)
    expect(() => loadConfig({ ...base, OPERATOR_EMAIL: 'abuse@veil.test' })).toThrow(/OPERATOR_EMAIL: must not be postmaster@ or abuse@/)
  })

  it('requires SECRET_KEY and DATABASE_URL in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' })).toThrow(/SECRET_KEY: is required in production/)
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(40) })).toThrow(/DATABASE_URL: is required in production/)
  })

  it('uses secure cookies behind an https PUBLIC_URL and lower-cases domains', () => {
    const cfg = loadConfig({ ...base, PUBLIC_URL: 'https://veilmail.io/', MAIL_DOMAINS: 'Veilmail.IO, alias.example' })
    expect(cfg.secureCookies).toBe(true)
    expect(cfg.publicUrl).toBe('https://veilmail.io')
    expect(cfg.mailDomains).toEqual(['veilmail.io', 'alias.example'])
    expect(cfg.smtpPublicHost).toBe('smtp.veilmail.io')
  })

  it('reads TRUST_PROXY as a number of proxies or their addresses, and refuses anything else', () => {
    expect(loadConfig(base).trustProxy).toEqual({ hops: 0 })
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toEqual({ hops: 0 })
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toEqual({ hops: 1 })
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 })
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,2001:db8::/32' }).trustProxy).toEqual({ proxies: ['10.0.0.0/8', '192.0.2.1', '2001:db8::/32'] })
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example', '2001:db8::/129']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad })).toThrow(/TRUST_PROXY: must be false, true, a number of proxies/)
    }
  })

  it('reads LOGIN_DELAY_SECONDS as first/longest', () => {
    expect(loadConfig(base).loginDelay).toEqual({ firstSeconds: 1, maxSeconds: 300 })
    expect(loadConfig({ ...base, LOGIN_DELAY_SECONDS: '2/60' }).loginDelay).toEqual({ firstSeconds: 2, maxSeconds: 60 })
    for (const bad of ['0/60', '60/2', '5', 'a/b']) expect(() => loadConfig({ ...base, LOGIN_DELAY_SECONDS: bad })).toThrow(/LOGIN_DELAY_SECONDS/)
  })
})
