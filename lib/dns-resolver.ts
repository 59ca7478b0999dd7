// The DNS every mail lookup goes through (SPF, DKIM, DMARC and ARC at the MX through mailauth,
// webhook hosts at delivery): a stub resolver asking DNS_SERVERS (or the system's servers) over
// UDP, TCP when an answer is truncated (RFC 7766), with an in-process cache that keeps answers
// for their TTL and "no such name"/"no such record" for the SOA's negative TTL (RFC 2308 §5), or
// for a short fixed time when the answer carries no SOA (below).
// Node's resolver gives no TTLs for TXT or MX and can wait more than a minute on a silent server;
// here a query gives up after DNS_TIMEOUT_MS as ETIMEOUT (a temperror, RFC 7208 §2.6.6), and
// concurrent questions for one name share one query. Errors carry Node's codes (ENOTFOUND,
// ENODATA, ESERVFAIL, ETIMEOUT), which mailauth understands.
import { randomInt } from 'node:crypto'
import dgram from 'node:dgram'
import { getServers } from 'node:dns'
import net from 'node:net'
import { decodeMessage, encodeQuery, RCODE, type DnsMessage, type ResourceRecord } from './dns-wire.ts'
import type { Lookup } from './ssrf-guard.ts'

/** What mailauth calls: `resolver(name, 'TXT')` answers like Node's `dns.promises.resolve`. */
export type DnsResolver = (name: string, rrtype: string) => Promise<string[][] | string[]>

export interface CachingResolver extends DnsResolver {
  /** PTR names of an address (RFC 1035 §3.5, RFC 3596 §2.5) */
  reverse(ip: string): Promise<string[]>
  /** A and AAAA, in the shape the SSRF guard takes */
  lookup: Lookup
  /** queries sent to a server (not answered from the cache) */
  readonly sent: number
  /**
   * When the cached answer (or "no such name/record") to this question expires, in ms since the
   * epoch; undefined when none is cached (never asked, expired, or a failure, which is not kept).
   * What is built on answers (an SPF result) lives no longer than the shortest of them.
   */
  expiresAt(name: string, rrtype: string): number | undefined
}

export interface DnsResolverOptions {
  /** a query (every server and retry) gives up after this long */
  timeoutMs: number
  /** `host`, `host:port`, `[v6]:port`; unset = the system's (resolv.conf) */
  servers?: string[]
  /** answers kept at most; the oldest go first */
  maxEntries?: number
  /** seconds a negative answer without an SOA is kept (tests shorten it) */
  negativeTtlWithoutSoa?: number
}

const MAX_TTL = 24 * 3600
const MAX_NEGATIVE_TTL = 3 * 3600 // RFC 2308 §5 suggests one to three hours at most
// RFC 2308 §5 says a negative answer without an SOA should not be cached, but some recursive
// resolvers (this machine's among them) strip the SOA from every NXDOMAIN: then each message asked
// its SPF and DMARC questions anew (35 msg/s at the MX). A minute is short enough that a record
// published meanwhile is seen soon, and long enough that a burst asks once.
const NEGATIVE_TTL_WITHOUT_SOA = 60

interface Server { address: string; port: number }
interface Entry { expires: number; value?: unknown[]; error?: { code: string; message: string } }

export function parseServer(s: string): Server {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(s)
  if (bracket) return { address: bracket[1], port: Number(bracket[2] ?? 53) }
  if (net.isIPv6(s)) return { address: s, port: 53 }
  const [address, port] = s.split(':')
  return { address, port: Number(port ?? 53) }
}

/** Without a stack trace: answers from the cache make many of these, and a stack says nothing here. */
function dnsError(code: string, message: string): Error {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  const error = Object.assign(new Error(message), { code })
  Error.stackTraceLimit = limit
  return error
}

/** Node's answer shapes for the record type asked for. */
function shape(type: string, records: ResourceRecord[]): unknown[] {
  return records.map((r) => {
    if (r.type === 'MX') return { exchange: r.exchange, priority: r.priority }
    if (r.type === 'TXT') return r.value
    if (r.type === 'SOA') return { nsname: r.mname, hostmaster: r.rname, serial: r.serial, refresh: r.refresh, retry: r.retry, expire: r.expire, minttl: r.minimum }
    return r.value
  }).filter((_, i) => records[i].type === type)
}

export function reverseName(ip: string): string {
  if (net.isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`
  if (!net.isIPv6(ip)) throw dnsError('EINVAL', 'not an IP address')
  const [head, tail = ''] = ip.split('::')
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h
  return `${groups.map((g) => g.padStart(4, '0')).join('').split('').reverse().join('.')}.ip6.arpa`
}

export function createDnsResolver(options: DnsResolverOptions): CachingResolver {
  const servers = (options.servers?.length ? options.servers : getServers()).map(parseServer)
  const maxEntries = options.maxEntries ?? 10_000
  const withoutSoaTtl = Math.min(options.negativeTtlWithoutSoa ?? NEGATIVE_TTL_WITHOUT_SOA, MAX_NEGATIVE_TTL)
  const cache = new Map<string, Entry>()
  const inFlight = new Map<string, Promise<string[][] | string[]>>()
  let sent = 0

  const remember = (key: string, entry: Entry) => {
    if (entry.expires <= Date.now()) return
    cache.delete(key)
    cache.set(key, entry)
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!)
  }

  /** One exchange with one server; undefined when it did not answer in time. */
  function exchange(server: Server, name: string, type: string, timeoutMs: number): Promise<DnsMessage | undefined> {
    sent++
    const id = randomInt(0, 0x10000)
    const query = encodeQuery(id, name, type)
    const matches = (m: DnsMessage) => m.response && m.id === id && m.question?.type === type && m.question.name.toLowerCase() === name.toLowerCase()
    return new Promise((resolve) => {
      const socket = dgram.createSocket(net.isIPv6(server.address) ? 'udp6' : 'udp4')
      const timer = setTimeout(() => done(undefined), timeoutMs)
      function done(answer: DnsMessage | undefined) {
        clearTimeout(timer)
        socket.close()
        resolve(answer)
      }
      socket.on('error', () => done(undefined))
      socket.on('message', (msg, from) => {
        // Only the server asked, with our id and question, is believed (RFC 5452 §3).
        if (from.port !== server.port || from.address !== server.address) return
        let answer: DnsMessage
        try {
          answer = decodeMessage(msg)
        } catch {
          return
        }
        if (!matches(answer)) return
        if (!answer.truncated) return done(answer)
        clearTimeout(timer)
        socket.close()
        overTcp(server, query, timeoutMs).then((m) => resolve(m && matches(m) ? m : undefined))
      })
      socket.send(query, server.port, server.address, (error) => error && done(undefined))
    })
  }

  function overTcp(server: Server, query: Buffer, timeoutMs: number): Promise<DnsMessage | undefined> {
    return new Promise((resolve) => {
      const socket = net.connect(server.port, server.address)
      let buffered = Buffer.alloc(0)
      const finish = (m: DnsMessage | undefined) => {
        socket.destroy()
        resolve(m)
      }
      socket.setTimeout(timeoutMs, () => finish(undefined))
      socket.on('error', () => finish(undefined))
      socket.on('connect', () => socket.write(Buffer.concat([Buffer.from([query.length >> 8, query.length & 0xff]), query])))
      socket.on('data', (chunk) => {
        buffered = Buffer.concat([buffered, chunk])
        if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return
        try {
          finish(decodeMessage(buffered.subarray(2, 2 + buffered.readUInt16BE(0))))
        } catch {
          finish(undefined)
        }
      })
    })
  }

  async function ask(name: string, type: string, key: string): Promise<string[][] | string[]> {
    const deadline = Date.now() + options.timeoutMs
    // Two rounds over the servers, each try getting its share of the time left.
    const tries = servers.length * 2
    let failure: Error = dnsError('ETIMEOUT', `DNS timeout for ${type}`)
    for (let i = 0; i < tries; i++) {
      const left = deadline - Date.now()
      if (left <= 0) break
      const answer = await exchange(servers[i % servers.length], name, type, Math.max(50, Math.floor(left / (tries - i))))
      if (!answer) continue
      if (answer.rcode === RCODE.NOERROR || answer.rcode === RCODE.NXDOMAIN) {
        const soa = answer.authority.find((r) => r.type === 'SOA')
        const negativeTtl = soa && soa.type === 'SOA' ? Math.min(soa.ttl, soa.minimum, MAX_NEGATIVE_TTL) : withoutSoaTtl
        const records = shape(type, answer.answers)
        if (answer.rcode === RCODE.NOERROR && records.length) {
          const ttl = Math.min(MAX_TTL, ...answer.answers.map((r) => r.ttl))
          remember(key, { expires: Date.now() + ttl * 1000, value: records })
          return records as string[] // MX and SOA answers are objects, as Node's
        }
        const error = answer.rcode === RCODE.NXDOMAIN ? { code: 'ENOTFOUND', message: `no such name (${type})` } : { code: 'ENODATA', message: `no ${type} record` }
        remember(key, { expires: Date.now() + negativeTtl * 1000, error })
        throw dnsError(error.code, error.message)
      }
      failure = dnsError(answer.rcode === RCODE.REFUSED ? 'EREFUSED' : 'ESERVFAIL', `DNS server failure for ${type}`)
    }
    throw failure
  }

  const keyOf = (name: string, rrtype: string) => `${rrtype.toUpperCase()} ${name.replace(/\.$/, '').toLowerCase()}`

  const resolver = ((name: string, rrtype: string) => {
    const type = rrtype.toUpperCase()
    const clean = name.replace(/\.$/, '')
    const key = keyOf(name, rrtype)
    const hit = cache.get(key)
    if (hit && hit.expires > Date.now()) return hit.error ? Promise.reject(dnsError(hit.error.code, hit.error.message)) : Promise.resolve(hit.value as string[])
    if (hit) cache.delete(key)
    let pending = inFlight.get(key)
    if (!pending) {
      pending = ask(clean, type, key).finally(() => inFlight.delete(key))
      inFlight.set(key, pending)
    }
    return pending
  }) as CachingResolver

  resolver.reverse = async (ip) => (await resolver(reverseName(ip), 'PTR')) as string[]
  resolver.lookup = async (hostname) => {
    // RFC 6761 §6.3: localhost names are the loopback, never asked of a server.
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]
    const [v4, v6] = await Promise.allSettled([resolver(hostname, 'A'), resolver(hostname, 'AAAA')])
    const found = [
      ...(v4.status === 'fulfilled' ? (v4.value as string[]).map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? (v6.value as string[]).map((address) => ({ address, family: 6 as const })) : []),
    ]
    if (found.length) return found
    throw v4.status === 'rejected' ? v4.reason : dnsError('ENOTFOUND', 'no address')
  }
  resolver.expiresAt = (name, rrtype) => {
    const hit = cache.get(keyOf(name, rrtype))
    return hit && hit.expires > Date.now() ? hit.expires : undefined
  }
  Object.defineProperty(resolver, 'sent', { get: () => sent })
  return resolver
}
