// SSRF guard for outgoing connections chosen by users (webhooks, IMAP hosts; docs/webhooks.md). The
// host is resolved first; every address it resolves to must be public, and the connection goes
// to the address that was checked (no second lookup an attacker's DNS could answer differently).
// Blocked: loopback, private (RFC 1918), link-local (incl. the 169.254.169.254 metadata service),
// CGNAT (RFC 6598), unique-local (RFC 4193), multicast, reserved and documentation ranges, and the
// same behind IPv4-mapped (::ffff:0:0/96), NAT64 (RFC 6052) and 6to4 (RFC 3056) IPv6 forms.
// Decimal, hex and octal IPv4 spellings are normalised by the WHATWG URL parser before we look.
import { lookup as dnsLookup } from 'node:dns/promises'
import net from 'node:net'

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
]
const V6_BLOCKED: [string, number][] = [
  ['::', 128], ['::1', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
  ['fd00:ec2::254', 128], // AWS metadata over IPv6 (already inside fc00::/7; named for the reader)
]

const blockList = new net.BlockList()
for (const [a, p] of V4_BLOCKED) blockList.addSubnet(a, p, 'ipv4')
for (const [a, p] of V6_BLOCKED) blockList.addSubnet(a, p, 'ipv6')

function v6Words(address: string): number[] {
  const [head, tail = ''] = address.split('::')
  const parse = (s: string) => {
    if (!s) return []
    const parts = s.split(':')
    const last = parts[parts.length - 1]
    if (last.includes('.')) {
      const b = last.split('.').map(Number)
      parts.splice(parts.length - 1, 1, ((b[0] << 8) | b[1]).toString(16), ((b[2] << 8) | b[3]).toString(16))
    }
    return parts.map((p) => parseInt(p, 16))
  }
  const h = parse(head)
  const t = parse(tail)
  return address.includes('::') ? [...h, ...new Array(8 - h.length - t.length).fill(0), ...t] : h
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64 or 6to4), if any. */
function embeddedV4(address: string): string | undefined {
  const w = v6Words(address.split('%')[0])
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  if (w.slice(0, 5).every((x) => x === 0) && (w[5] === 0xffff || w[5] === 0)) return v4(w[6], w[7]) // ::ffff:a.b.c.d and ::a.b.c.d
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return v4(w[6], w[7]) // 64:ff9b::/96
  if (w[0] === 0x2002) return v4(w[1], w[2]) // 2002::/16
  return undefined
}

/** True when a connection to this IP address must be refused. Anything unparseable is refused. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const family = net.isIP(bare)
  if (family === 4) return blockList.check(bare, 'ipv4')
  if (family === 6) {
    const v4 = embeddedV4(bare)
    if (v4 !== undefined) return blockList.check(v4, 'ipv4') || v4 === '0.0.0.0'
    return blockList.check(bare.split('%')[0], 'ipv6')
  }
  return true
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError'
}

export interface ResolvedHost {
  address: string
  family: 4 | 6
}

export type Lookup = (hostname: string) => Promise<ResolvedHost[]>

const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((r) => ({ address: r.address, family: r.family as 4 | 6 }))

/**
 * Resolves `hostname` (an IP literal is taken as it is) and returns the address to connect to.
 * Throws BlockedAddressError when any address it resolves to is not public, unless allowed.
 */
export async function resolvePublicAddress(hostname: string, options: { allowPrivate: boolean; lookup?: Lookup }): Promise<ResolvedHost> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const literal = net.isIP(host)
  const addresses = literal ? [{ address: host, family: literal as 4 | 6 }] : await (options.lookup ?? systemLookup)(host)
  if (addresses.length === 0) throw new BlockedAddressError('host has no address')
  if (!options.allowPrivate && addresses.some((a) => isBlockedAddress(a.address))) {
    throw new BlockedAddressError('host resolves to a private or reserved address')
  }
  return addresses[0]
}
