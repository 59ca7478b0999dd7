// DNS messages on the wire (RFC 1035 §4): queries and answers for the record types mail
// authentication asks for (A, AAAA, CNAME, MX, NS, PTR, SOA, TXT). Used by our stub resolver
// (lib/dns-resolver.ts) and by the loopback DNS server of the tests and benchmarks. Names are
// compressed on read only (§4.1.4); a pointer loop or a read past the end throws.

export const RR_TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, OPT: 41 } as const
export type RrTypeName = Exclude<keyof typeof RR_TYPES, 'OPT'>
const TYPE_NAMES = new Map<number, string>(Object.entries(RR_TYPES).map(([name, code]) => [code, name]))

/** RCODEs (RFC 1035 §4.1.1) */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const

export type RrData =
  | { type: 'A' | 'AAAA' | 'CNAME' | 'NS' | 'PTR'; value: string }
  | { type: 'MX'; priority: number; exchange: string }
  | { type: 'TXT'; value: string[] }
  | { type: 'SOA'; mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number }

export type ResourceRecord = RrData & { name: string; ttl: number }

export interface DnsMessage {
  id: number
  /** QR bit: an answer */
  response: boolean
  /** TC bit: cut to fit a datagram, ask again over TCP (RFC 7766) */
  truncated: boolean
  rcode: number
  question?: { name: string; type: string }
  answers: ResourceRecord[]
  authority: ResourceRecord[]
}

export class DnsFormatError extends Error {
  readonly code = 'EBADRESP'
}

// ---- writing ----

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean)
  const parts: Buffer[] = []
  for (const label of labels) {
    const bytes = Buffer.from(label, 'utf8')
    if (bytes.length > 63) throw new DnsFormatError('DNS label longer than 63 octets')
    parts.push(Buffer.from([bytes.length]), bytes)
  }
  parts.push(Buffer.from([0]))
  const out = Buffer.concat(parts)
  if (out.length > 255) throw new DnsFormatError('DNS name longer than 255 octets')
  return out
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2)
  b.writeUInt16BE(n)
  return b
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

function typeCode(type: string): number {
  const code = RR_TYPES[type as RrTypeName]
  if (!code) throw new DnsFormatError(`unsupported DNS type ${type}`)
  return code
}

/** A recursive query (RD set) with an EDNS0 OPT record offering 1232-octet answers (RFC 6891). */
export function encodeQuery(id: number, name: string, type: string, udpSize = 1232): Buffer {
  const header = Buffer.concat([u16(id), u16(0x0100), u16(1), u16(0), u16(0), u16(1)])
  const opt = Buffer.concat([Buffer.from([0]), u16(RR_TYPES.OPT), u16(udpSize), u32(0), u16(0)])
  return Buffer.concat([header, encodeName(name), u16(typeCode(type)), u16(1), opt])
}

function encodeRdata(rr: RrData): Buffer {
  switch (rr.type) {
    case 'A':
      return Buffer.from(rr.value.split('.').map(Number))
    case 'AAAA': {
      const [head, tail = ''] = rr.value.split('::')
      const h = head ? head.split(':') : []
      const t = tail ? tail.split(':') : []
      const groups = rr.value.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h
      return Buffer.concat(groups.map((g) => u16(parseInt(g, 16))))
    }
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return encodeName(rr.value)
    case 'MX':
      return Buffer.concat([u16(rr.priority), encodeName(rr.exchange)])
    case 'TXT':
      return Buffer.concat(rr.value.map((s) => {
        const bytes = Buffer.from(s, 'utf8')
        return Buffer.concat([Buffer.from([bytes.length]), bytes])
      }))
    case 'SOA':
      return Buffer.concat([encodeName(rr.mname), encodeName(rr.rname), ...[rr.serial, rr.refresh, rr.retry, rr.expire, rr.minimum].map(u32)])
  }
}

function encodeRecord(rr: ResourceRecord): Buffer {
  const rdata = encodeRdata(rr)
  return Buffer.concat([encodeName(rr.name), u16(typeCode(rr.type)), u16(1), u32(rr.ttl), u16(rdata.length), rdata])
}

/** An answer to `query` (what a server sends back). */
export function encodeResponse(query: DnsMessage, answer: { rcode: number; answers?: ResourceRecord[]; authority?: ResourceRecord[]; truncated?: boolean }): Buffer {
  const answers = answer.answers ?? []
  const authority = answer.authority ?? []
  const flags = 0x8000 | 0x0100 | 0x0080 | (answer.truncated ? 0x0200 : 0) | (answer.rcode & 0xf)
  const question = query.question ? Buffer.concat([encodeName(query.question.name), u16(typeCode(query.question.type)), u16(1)]) : Buffer.alloc(0)
  return Buffer.concat([
    u16(query.id), u16(flags), u16(query.question ? 1 : 0), u16(answers.length), u16(authority.length), u16(0),
    question, ...answers.map(encodeRecord), ...authority.map(encodeRecord),
  ])
}

// ---- reading ----

class Reader {
  offset = 0
  readonly buf: Buffer
  constructor(buf: Buffer) {
    this.buf = buf
  }

  need(n: number) {
    if (this.offset + n > this.buf.length) throw new DnsFormatError('DNS message cut short')
  }
  u8() { this.need(1); return this.buf[this.offset++] }
  u16() { this.need(2); const v = this.buf.readUInt16BE(this.offset); this.offset += 2; return v }
  u32() { this.need(4); const v = this.buf.readUInt32BE(this.offset); this.offset += 4; return v }

  name(): string {
    const labels: string[] = []
    let at = this.offset
    let jumped = false
    for (let jumps = 0; ; ) {
      if (at >= this.buf.length) throw new DnsFormatError('DNS name runs past the message')
      const len = this.buf[at]
      if (len === 0) {
        if (!jumped) this.offset = at + 1
        break
      }
      if ((len & 0xc0) === 0xc0) {
        if (at + 1 >= this.buf.length) throw new DnsFormatError('DNS name runs past the message')
        if (++jumps > 32) throw new DnsFormatError('DNS name compression loop')
        if (!jumped) this.offset = at + 2
        jumped = true
        at = ((len & 0x3f) << 8) | this.buf[at + 1]
        continue
      }
      if (len > 63) throw new DnsFormatError('bad DNS label')
      if (at + 1 + len > this.buf.length) throw new DnsFormatError('DNS name runs past the message')
      labels.push(this.buf.toString('latin1', at + 1, at + 1 + len))
      at += 1 + len
    }
    return labels.join('.')
  }
}

/** RFC 5952 §4.2: the longest run of two or more zero groups becomes `::`. */
function compressIpv6(groups: string[]): string {
  let best = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    let j = i
    while (j < 8 && groups[j] === '0') j++
    if (j - i > bestLength) [best, bestLength] = [i, j - i]
    i = j > i ? j : i + 1
  }
  if (best < 0) return groups.join(':')
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLength).join(':')}`
}

function readRdata(r: Reader, type: number, length: number): RrData | undefined {
  const end = r.offset + length
  r.need(length)
  let data: RrData | undefined
  switch (TYPE_NAMES.get(type)) {
    case 'A':
      if (length === 4) data = { type: 'A', value: [...r.buf.subarray(r.offset, end)].join('.') }
      break
    case 'AAAA':
      if (length === 16) {
        const groups: string[] = []
        for (let i = 0; i < 16; i += 2) groups.push(r.buf.readUInt16BE(r.offset + i).toString(16))
        data = { type: 'AAAA', value: compressIpv6(groups) }
      }
      break
    case 'CNAME':
    case 'NS':
    case 'PTR':
      data = { type: TYPE_NAMES.get(type) as 'CNAME', value: r.name() }
      break
    case 'MX':
      data = { type: 'MX', priority: r.u16(), exchange: r.name() }
      break
    case 'TXT': {
      const value: string[] = []
      let at = r.offset
      while (at < end) {
        const len = r.buf[at]
        if (at + 1 + len > end) throw new DnsFormatError('TXT string runs past its record')
        value.push(r.buf.toString('utf8', at + 1, at + 1 + len))
        at += 1 + len
      }
      data = { type: 'TXT', value }
      break
    }
    case 'SOA':
      data = { type: 'SOA', mname: r.name(), rname: r.name(), serial: r.u32(), refresh: r.u32(), retry: r.u32(), expire: r.u32(), minimum: r.u32() }
      break
  }
  r.offset = end
  return data
}

function readRecords(r: Reader, count: number): ResourceRecord[] {
  const out: ResourceRecord[] = []
  for (let i = 0; i < count; i++) {
    const name = r.name()
    const type = r.u16()
    r.u16() // class
    const rawTtl = r.u32()
    const ttl = rawTtl > 0x7fffffff ? 0 : rawTtl // RFC 2181 §8: a TTL with the top bit set counts as zero
    const length = r.u16()
    const data = readRdata(r, type, length)
    if (data) out.push({ ...data, name, ttl })
  }
  return out
}

/** Parses a DNS message; throws DnsFormatError on anything malformed. */
export function decodeMessage(buf: Buffer): DnsMessage {
  const r = new Reader(buf)
  const id = r.u16()
  const flags = r.u16()
  const qd = r.u16()
  const an = r.u16()
  const ns = r.u16()
  r.u16() // additional records: not needed
  let question: DnsMessage['question']
  for (let i = 0; i < qd; i++) {
    const name = r.name()
    const type = r.u16()
    r.u16()
    if (i === 0) question = { name, type: TYPE_NAMES.get(type) ?? String(type) }
  }
  const truncated = (flags & 0x0200) !== 0
  // A truncated answer may end mid-record: its header is all a client needs.
  const answers = truncated ? [] : readRecords(r, an)
  const authority = truncated ? [] : readRecords(r, ns)
  return { id, response: (flags & 0x8000) !== 0, truncated, rcode: flags & 0xf, question, answers, authority }
}
