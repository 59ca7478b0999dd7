import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { createTestApp, testConfig, type TestApp } from '../../scripts/testing/test-app.ts'
import { pickClientIp } from './client-ip.ts'

describe('the client address behind proxies', () => {
  const socket = '10.0.0.2'
  const oneProxy = { hops: 1 }
  it.each([
    ['a spoofed left-most entry', '6.6.6.6, 203.0.113.7', '203.0.113.7'],
    ['many spoofed entries', `${Array.from({ length: 500 }, (_, i) => `6.6.${i % 250}.6`).join(', ')}, 203.0.113.7`, '203.0.113.7'],
    ['no header', undefined, socket],
    ['an empty header and empty entries', ' , ,203.0.113.7,', '203.0.113.7'],
    ['garbage where the proxy wrote', '203.0.113.7, <script>', socket],
    ['garbage only', 'unknown', socket],
    ['an IPv6 address in upper case', '6.6.6.6, 2001:DB8:0:0::1', '2001:db8::1'],
    ['a bracketed IPv6 address with a port', '[2001:db8::1]:443', '2001:db8::1'],
    ['an IPv4-mapped IPv6 address', '::FFFF:203.0.113.7', '203.0.113.7'],
    ['an IPv4 address with a port', '203.0.113.7:51234', '203.0.113.7'],
  ])('with one proxy in front takes the hop it wrote: %s', (_name, header, expected) => {
    expect(pickClientIp(oneProxy, socket, header)).toBe(expected)
  })

  it('counts hops from the right and takes the farthest hop when there are too few', () => {
    expect(pickClientIp({ hops: 2 }, socket, '6.6.6.6, 203.0.113.7, 10.0.0.9')).toBe('203.0.113.7')
    expect(pickClientIp({ hops: 2 }, socket, '203.0.113.7')).toBe('203.0.113.7')
    expect(pickClientIp({ hops: 3 }, socket, undefined)).toBe(socket)
    expect(pickClientIp({ hops: 2 }, socket, 'garbage, 203.0.113.8')).toBe('203.0.113.8')
  })

  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(pickClientIp({ hops: 0 }, socket, '203.0.113.7')).toBe(socket)
  })

  it('walks left over listed proxies (addresses and CIDRs, IPv4 and IPv6) to the first untrusted hop', () => {
    const trust = { proxies: ['10.0.0.0/8', '2001:db8:ffff::/48', '192.0.2.1'] }
    expect(pickClientIp(trust, socket, '6.6.6.6, 198.51.100.9, 10.9.9.9')).toBe('198.51.100.9')
    expect(pickClientIp(trust, socket, '6.6.6.6, 198.51.100.9, 2001:db8:ffff::5, 192.0.2.1')).toBe('198.51.100.9')
    expect(pickClientIp(trust, socket, '6.6.6.6, 2001:db8:1::7')).toBe('2001:db8:1::7')
    // A client talking to us directly cannot claim another address.
    expect(pickClientIp(trust, '198.51.100.200', '10.1.1.1, 203.0.113.7')).toBe('198.51.100.200')
    // Only proxies on the path: the farthest one.
    expect(pickClientIp(trust, socket, '10.1.1.1, 10.2.2.2')).toBe('10.1.1.1')
    // Garbage a (broken) proxy passed on never becomes a key: the proxy that handed it over does.
    expect(pickClientIp(trust, socket, '198.51.100.9, junk, 10.1.1.1')).toBe('10.1.1.1')
  })
})

describe('the client address over a real socket', () => {
  let t: TestApp
  const servers: ServerType[] = []
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve))
    await t.close()
  })

  /** Serves the app with `TRUST_PROXY` on a loopback port; returns the sign-in address's rate-limit key for a request. */
  const serveWith = async (trustProxy: string) => {
    const app = createApp({ sql: t.db.sql, boss: t.boss, config: testConfig({ DATABASE_URL: t.db.url, TRUST_PROXY: trustProxy }) })
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    servers.push(server)
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return async (forwardedFor?: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', origin: url }
      if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor
      const probe = `probe-${crypto.randomUUID()}@example.com`
      const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email: probe, password: 'not the password' }) })
      expect(res.status).toBe(401)
      const [row] = await t.db.sql`select key from rate_limits where action_type = 'login-ip' order by last_action desc limit 1`
      return row.key as string
    }
  }

  it('TRUST_PROXY=1 takes the hop the proxy wrote, not the spoofed left-most one', async () => {
    const keyOf = await serveWith('1')
    expect(await keyOf('6.6.6.6, 203.0.113.7')).toBe('203.0.113.7')
    expect(await keyOf()).toBe('127.0.0.1')
  })

  it('TRUST_PROXY=<addresses> trusts only the listed proxies', async () => {
    const keyOf = await serveWith('127.0.0.1, 10.0.0.0/8')
    expect(await keyOf('6.6.6.6, 198.51.100.9, 10.4.4.4')).toBe('198.51.100.9')
    expect(await keyOf('2001:db8::77')).toBe('2001:db8::77')
  })

  it('TRUST_PROXY=false ignores the header', async () => {
    const keyOf = await serveWith('false')
    expect(await keyOf('203.0.113.7')).toBe('127.0.0.1')
  })
})
