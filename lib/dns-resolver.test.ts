import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startDnsStandIn, type DnsStandIn } from '../scripts/testing/dns-stand-in.ts'
import { createDnsResolver, reverseName } from './dns-resolver.ts'
import { decodeMessage, DnsFormatError, encodeQuery } from './dns-wire.ts'

let dns: DnsStandIn
beforeAll(async () => {
  dns = await startDnsStandIn()
})
afterAll(async () => {
  await dns?.close()
})
beforeEach(() => {
  dns.records = {}
  dns.silent.clear()
  dns.truncate.clear()
  dns.negativeTtl = 60
  dns.withoutSoa = false
  dns.queries.clear()
})

const resolver = (timeoutMs = 2000) => createDnsResolver({ timeoutMs, servers: [dns.server] })

describe('DNS resolver', () => {
  it('answers TXT, MX, A, AAAA and PTR in the shapes mailauth expects', async () => {
    dns.records['example.test TXT'] = { ttl: 300, data: [{ type: 'TXT', value: ['v=spf1 ', 'ip4:192.0.2.1 -all'] }] }
    dns.records['example.test MX'] = { ttl: 300, data: [{ type: 'MX', priority: 10, exchange: 'mx.example.test' }] }
    dns.records['mx.example.test A'] = { ttl: 300, data: [{ type: 'A', value: '192.0.2.1' }] }
    dns.records['mx.example.test AAAA'] = { ttl: 300, data: [{ type: 'AAAA', value: '2001:db8::1' }] }
    dns.records['1.2.0.192.in-addr.arpa PTR'] = { ttl: 300, data: [{ type: 'PTR', value: 'mx.example.test' }] }
    const r = resolver()
    expect(await r('example.test', 'TXT')).toEqual([['v=spf1 ', 'ip4:192.0.2.1 -all']])
    expect(await r('Example.TEST.', 'MX')).toEqual([{ exchange: 'mx.example.test', priority: 10 }])
    expect(await r('mx.example.test', 'A')).toEqual(['192.0.2.1'])
    expect(await r('mx.example.test', 'AAAA')).toEqual(['2001:db8::1'])
    expect(await r.reverse('192.0.2.1')).toEqual(['mx.example.test'])
    expect(await r.lookup('mx.example.test')).toEqual([{ address: '192.0.2.1', family: 4 }, { address: '2001:db8::1', family: 6 }])
    expect(reverseName('2001:db8::1')).toBe('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa')
  })

  it('reports a missing name as ENOTFOUND and a missing record as ENODATA, and caches both for the SOA TTL', async () => {
    dns.records['exists.test A'] = { ttl: 300, data: [{ type: 'A', value: '192.0.2.7' }] }
    const r = resolver()
    for (let i = 0; i < 3; i++) {
      await expect(r('nowhere.test', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
      await expect(r('exists.test', 'TXT')).rejects.toMatchObject({ code: 'ENODATA' })
    }
    expect(dns.queries.get('nowhere.test TXT')).toBe(1)
    expect(dns.queries.get('exists.test TXT')).toBe(1)
  })

  it('does not cache a negative answer whose SOA TTL is 0', async () => {
    dns.negativeTtl = 0
    const r = resolver()
    await expect(r('nowhere.test', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
    await expect(r('nowhere.test', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
    expect(dns.queries.get('nowhere.test TXT')).toBe(2)
  })

  it('caches a negative answer that carries no SOA for a short fixed time, then asks again', async () => {
    dns.withoutSoa = true
    dns.records['exists.test A'] = { ttl: 300, data: [{ type: 'A', value: '192.0.2.7' }] }
    const r = resolver()
    for (let i = 0; i < 50; i++) {
      await expect(r('nowhere.test', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
      await expect(r('exists.test', 'TXT')).rejects.toMatchObject({ code: 'ENODATA' })
    }
    expect(dns.queries.get('nowhere.test TXT')).toBe(1)
    expect(dns.queries.get('exists.test TXT')).toBe(1)

    // the time is bounded: a record published meanwhile is seen once it passed
    const short = createDnsResolver({ timeoutMs: 2000, servers: [dns.server], negativeTtlWithoutSoa: 1 })
    await expect(short('later.test', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
    dns.records['later.test TXT'] = { ttl: 300, data: [{ type: 'TXT', value: ['v=spf1 -all'] }] }
    await expect(short('later.test', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
    expect(dns.queries.get('later.test TXT')).toBe(1)
    await expect.poll(() => short('later.test', 'TXT').catch((e: Error) => e), { timeout: 10_000, interval: 200 }).toEqual([['v=spf1 -all']])
    expect(dns.queries.get('later.test TXT')).toBe(2)
  })

  it('keeps an answer for its TTL and asks again once it expired', async () => {
    dns.records['short.test TXT'] = { ttl: 1, data: [{ type: 'TXT', value: ['first'] }] }
    const r = resolver()
    expect(await r('short.test', 'TXT')).toEqual([['first']])
    dns.records['short.test TXT'] = { ttl: 300, data: [{ type: 'TXT', value: ['second'] }] }
    expect(await r('short.test', 'TXT')).toEqual([['first']]) // from the cache
    expect(dns.queries.get('short.test TXT')).toBe(1)
    await expect.poll(() => r('short.test', 'TXT'), { timeout: 5000, interval: 100 }).toEqual([['second']])
    expect(dns.queries.get('short.test TXT')).toBe(2)
    expect(await r('short.test', 'TXT')).toEqual([['second']])
    expect(dns.queries.get('short.test TXT')).toBe(2)
  })

  it('gives up on a silent server with ETIMEOUT and does not remember the failure', async () => {
    dns.silent.add('silent.test')
    const r = resolver(300)
    await expect(r('silent.test', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' })
    expect(dns.queries.get('silent.test TXT')).toBeGreaterThanOrEqual(1)
    dns.silent.clear()
    dns.records['silent.test TXT'] = { ttl: 60, data: [{ type: 'TXT', value: ['back'] }] }
    expect(await r('silent.test', 'TXT')).toEqual([['back']])
  })

  it('asks the next server when one is silent', async () => {
    dns.records['two.test A'] = { ttl: 60, data: [{ type: 'A', value: '192.0.2.9' }] }
    // 127.0.0.2 has nothing listening on that port: the query to it goes unanswered.
    const r = createDnsResolver({ timeoutMs: 2000, servers: [`127.0.0.2:${dns.port}`, dns.server] })
    expect(await r('two.test', 'A')).toEqual(['192.0.2.9'])
  })

  it('asks over TCP when the UDP answer is truncated', async () => {
    const long = Array.from({ length: 8 }, (_, i) => `include:spf${i}.example.test `.repeat(6))
    dns.records['big.test TXT'] = { ttl: 60, data: [{ type: 'TXT', value: long }] }
    dns.truncate.add('big.test')
    expect(await resolver()('big.test', 'TXT')).toEqual([long])
    expect(dns.queries.get('big.test TXT')).toBe(2) // once over UDP, once over TCP
  })

  it('sends one query for many concurrent questions about one name', async () => {
    dns.records['busy.test TXT'] = { ttl: 60, data: [{ type: 'TXT', value: ['v=DMARC1; p=none'] }] }
    const r = resolver()
    const answers = await Promise.all(Array.from({ length: 50 }, () => r('busy.test', 'TXT')))
    expect(answers.every((a) => JSON.stringify(a) === '[["v=DMARC1; p=none"]]')).toBe(true)
    expect(dns.queries.get('busy.test TXT')).toBe(1)
    expect(r.sent).toBe(1)
  })

  it('resolves localhost names itself (RFC 6761)', async () => {
    expect(await resolver().lookup('localhost')).toContainEqual({ address: '127.0.0.1', family: 4 })
    expect(dns.queries.size).toBe(0)
  })
})

describe('DNS messages', () => {
  it('refuses hostile answers: compression loops, cut-short records, names past the end', () => {
    const query = encodeQuery(7, 'loop.test', 'TXT')
    // header: 1 answer whose name is a pointer to itself
    const header = Buffer.from([0, 7, 0x81, 0x80, 0, 0, 0, 1, 0, 0, 0, 0])
    expect(() => decodeMessage(Buffer.concat([header, Buffer.from([0xc0, 12])]))).toThrow(DnsFormatError)
    expect(() => decodeMessage(query.subarray(0, 15))).toThrow(DnsFormatError)
    const cut = Buffer.concat([Buffer.from([0, 7, 0x81, 0x80, 0, 0, 0, 1, 0, 0, 0, 0]), Buffer.from([0, 0, 16, 0, 1, 0, 0, 0, 60, 0, 200, 3, 0x61])])
    expect(() => decodeMessage(cut)).toThrow(DnsFormatError)
  })

  it('refuses names DNS can not carry', () => {
    expect(() => encodeQuery(1, `${'a'.repeat(64)}.test`, 'A')).toThrow(DnsFormatError)
    expect(() => encodeQuery(1, Array(130).fill('ab').join('.'), 'A')).toThrow(DnsFormatError)
  })
})
