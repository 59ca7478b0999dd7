// A tiny authoritative-looking DNS server on loopback (UDP and TCP on one port) for the resolver
// tests and the MX benchmark: answers from a table, NXDOMAIN with an SOA (negative TTL, RFC 2308)
// for anything else (or without one, as some recursive resolvers answer), and can stay silent or truncate a UDP answer for chosen names. It counts
// the queries it got, so a test can see what a cache saved.
import dgram from 'node:dgram'
import { EventEmitter } from 'node:events'
import net from 'node:net'
import { decodeMessage, encodeResponse, RCODE, type DnsMessage, type RrData } from '../../lib/dns-wire.ts'

export interface DnsStandIn extends EventEmitter {
  /** `host:port`, as DNS_SERVERS takes it */
  server: string
  port: number
  /** `records['name TYPE']`: the answer (TTL per record set) */
  records: Record<string, { ttl: number; data: RrData[] }>
  /** names (lower case) never answered */
  silent: Set<string>
  /** names whose UDP answer is truncated (TC), so the client must ask over TCP */
  truncate: Set<string>
  /** TTL of the SOA in negative answers (RFC 2308 §5) */
  negativeTtl: number
  /** negative answers carry no SOA at all (what this machine's resolver does) */
  withoutSoa: boolean
  /** queries received, `name TYPE` → count (UDP and TCP) */
  queries: Map<string, number>
  close(): Promise<void>
}

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const dns = new EventEmitter() as DnsStandIn
  Object.assign(dns, { records: {}, silent: new Set(), truncate: new Set(), negativeTtl: 60, withoutSoa: false, queries: new Map() })

  const answer = (query: DnsMessage, overUdp: boolean): Buffer | undefined => {
    const q = query.question
    if (!q) return encodeResponse(query, { rcode: RCODE.FORMERR })
    const name = q.name.toLowerCase()
    const key = `${name} ${q.type}`
    dns.queries.set(key, (dns.queries.get(key) ?? 0) + 1)
    dns.emit('query', key)
    if (dns.silent.has(name)) return undefined
    if (overUdp && dns.truncate.has(name)) return encodeResponse(query, { rcode: RCODE.NOERROR, truncated: true })
    const set = dns.records[key]
    if (set) return encodeResponse(query, { rcode: RCODE.NOERROR, answers: set.data.map((d) => ({ ...d, name: q.name, ttl: set.ttl })) })
    const exists = Object.keys(dns.records).some((k) => k.startsWith(name + ' '))
    const soa = { name: name.split('.').slice(-1)[0] || '.', ttl: dns.negativeTtl, type: 'SOA' as const, mname: 'ns.stand-in.test', rname: 'hostmaster.stand-in.test', serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: dns.negativeTtl }
    return encodeResponse(query, { rcode: exists ? RCODE.NOERROR : RCODE.NXDOMAIN, authority: dns.withoutSoa ? [] : [soa] })
  }

  // RFC 7766: over TCP each message is preceded by its length in two octets.
  const sockets = new Set<net.Socket>()
  const tcp = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buffered = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk])
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0)
        const msg = buffered.subarray(2, 2 + length)
        buffered = buffered.subarray(2 + length)
        try {
          const reply = answer(decodeMessage(msg), false)
          if (reply) socket.write(Buffer.concat([Buffer.from([reply.length >> 8, reply.length & 0xff]), reply]))
        } catch {
          socket.destroy()
        }
      }
    })
  })
  // The UDP port is picked by the system; TCP must get the same number, so try again if it is taken.
  let udp: dgram.Socket | undefined
  let port = 0
  for (let attempt = 0; !udp; attempt++) {
    const socket = dgram.createSocket('udp4')
    socket.on('message', (msg, from) => {
      let query: DnsMessage
      try {
        query = decodeMessage(msg)
      } catch {
        return
      }
      const reply = answer(query, true)
      if (reply) socket.send(reply, from.port, from.address)
    })
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
    port = socket.address().port
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject)
        tcp.listen(port, '127.0.0.1', () => {
          tcp.off('error', reject)
          resolve()
        })
      })
      udp = socket
    } catch (error) {
      socket.close()
      if (attempt > 10) throw error
    }
  }
  const bound = udp

  dns.port = port
  dns.server = `127.0.0.1:${port}`
  dns.close = async () => {
    for (const s of sockets) s.destroy()
    await Promise.all([new Promise<void>((resolve) => bound.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))])
  }
  return dns
}
