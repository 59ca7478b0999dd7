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
    expect(cfg.embeddedPgPort).toBe(54329)
    expect(cfg.maxMessageBytes).toBe(26214400)
    expect(cfg.allowPrivateNetworks).toBe(false)
    expect(cfg.google).toBeUndefined()
    expect(cfg.secureCookies).toBe(false)
    expect(cfg.mxMaxConnectionsPerIp).toBe(20)
    expect(cfg.mxGreetPauseMs).toBe(0)
    expect(cfg.dnsServers).toBeUndefined()
    expect(cfg.outboundSmtpConnections).toBe(32)
  })

  it('reads the throughput settings and refuses bad DNS servers', () => {
    const cfg = loadConfig({ ...base, DNS_SERVERS: '127.0.0.1:5353, ::1, [2001:db8::53]:53', MX_GREET_PAUSE_MS: '250', OUTBOUND_SMTP_CONNECTIONS: '4' })
    expect(cfg.dnsServers).toEqual(['127.0.0.1:5353', '::1', '[2001:db8::53]:53'])
    expect(cfg.mxGreetPauseMs).toBe(250)
    expect(cfg.outboundSmtpConnections).toBe(4)
    expect(() => loadConfig({ ...base, DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/)
    expect(() => loadConfig({ ...base, DNS_SERVERS: '127.0.0.1:99999' })).toThrow(/DNS_SERVERS/)
    expect(() => loadConfig({ ...base, MX_MAX_CONNECTIONS_PER_IP: '0' })).toThrow(/MX_MAX_CONNECTIONS_PER_IP/)
  })

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ ...base, PORT: 'eighty' })).toThrow(/PORT: must be a port number/)
    expect(() => loadConfig({ ...base, MAIL_DOMAINS: 'not a domain' })).toThrow(/MAIL_DOMAINS/)
    expect(() => loadConfig({ ...base, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(/ALLOW_PRIVATE_NETWORKS/)
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
})
