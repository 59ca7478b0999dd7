// SSRF guard for outgoing connections chosen by users (webhooks, IMAP hosts; docs/webhooks.md). The
// host is resolved first; every address it resolves to must be public, and the connection goes
// to the address that was checked (no second lookup an attacker's DNS could answer differently).
// Blocked IPv4: loopback, private (RFC 1918), link-local (incl. the 169.254.169.254 metadata
// service), CGNAT (RFC 6598), multicast, reserved and documentation ranges. IPv6 is allowed only
// inside global unicast 2000::/3 (RFC 4291 §2.4; the rest is reserved, loopback, unique-local
// with the AWS metadata fd00:ec2::254, link-local or multicast) minus V6_BLOCKED, or as one of
// the forms that carry an IPv4 address, decided per form in V6_WITH_V4.
// Decimal, hex and octal IPv4 spellings are normalised by the WHATWG URL parser before we look.
import { lookup as dnsLookup } from 'node:dns/promises'
import net from 'node:net'

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
]
/** Not public although inside 2000::/3 (6to4 2002::/16 is refused in V6_WITH_V4). */
const V6_BLOCKED: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments (RFC 2928), Teredo 2001::/32 among them
  ['2001:db8::', 32], ['3fff::', 20], // documentation (RFC 3849, RFC 9637)
]

type Embedding = 'check' | 'refuse'
/**
 * IPv6 forms that carry an IPv4 address. 'check': the packet reaches the embedded IPv4 address
 * itself, so that address must pass the IPv4 rules. 'refuse': the form is refused whatever it
 * carries, because the IPv4 part cannot be checked meaningfully or the form has no honest use.
 */
const V6_WITH_V4: { prefix: number[]; decision: Embedding }[] = [
  // IPv4-mapped ::ffff:0:0/96 (RFC 4291 §2.5.5.2): a dual-stack socket connects over IPv4 to it.
  { prefix: [0, 0, 0, 0, 0, 0xffff], decision: 'check' },
  // IPv4-translated ::ffff:0:0:0/96 (RFC 2765 §2.1, SIIT): a stateless translator on the path
  // sends it to the embedded address, which is how a SYN to ::ffff:0:7f00:1 reached 127.0.0.1.
  { prefix: [0, 0, 0, 0, 0xffff, 0], decision: 'check' },
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1): what DNS64 answers in IPv6-only
  // networks, so public hosts must keep working; the translator connects to the last 32 bits.
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], decision: 'check' },
  // IPv4-compatible ::/96 (RFC 4291 §2.5.5.1): deprecated, used by no host, and some stacks still
  // tunnel it automatically (Linux sit). Covers :: and ::1 as well.
  { prefix: [0, 0, 0, 0, 0, 0], decision: 'refuse' },
  // NAT64 local-use 64:ff9b:1::/48 (RFC 8215) and the rest of 64:ff9b::/32: a local translator
  // whose prefix length, and so where the IPv4 sits (RFC 6052 §2.2), we cannot know.
  { prefix: [0x64, 0xff9b], decision: 'refuse' },
  // 6to4 2002::/16 (RFC 3056, deprecated by RFC 7526): a tunnel. Bits 16-47 name the relay that
  // unwraps the packet (our own host, if it runs 6to4, for 2002:7f00:1::), not the final host.
  { prefix: [0x2002], decision: 'refuse' },
  // Teredo 2001::/32 (RFC 4380 §4): a tunnel through the server in bits 32-63 to a client hidden
  // in the last 32 bits (XOR 0xffffffff) behind a NAT: neither is the host we would talk to.
  { prefix: [0x2001, 0], decision: 'refuse' },
]

const blockList = new net.BlockList()
for (const [a, p] of V4_BLOCKED) blockList.addSubnet(a, p, 'ipv4')
for (const [a, p] of V6_BLOCKED) blockList.addSubnet(a, p, 'ipv6')

/**
 * The eight 16-bit words of an IPv6 address that net.isIP accepted (zone id removed): compressed
 * "::", leading zeros, any case, a dotted-quad tail.
 */
function v6Words(address: string): number[] {
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
  const [head, tail] = address.split('::')
  if (tail === undefined) return parse(head)
  const h = parse(head)
  const t = parse(tail)
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t]
}

function isBlockedV6(address: string): boolean {
  const w = v6Words(address)
  if (w.length !== 8 || w.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffff)) return true
  const form = V6_WITH_V4.find((f) => f.prefix.every((x, i) => w[i] === x))
  if (form?.decision === 'refuse') return true
  if (form?.decision === 'check') return blockList.check(`${w[6] >> 8}.${w[6] & 255}.${w[7] >> 8}.${w[7] & 255}`, 'ipv4')
  if (w[0] >> 13 !== 1) return true // outside 2000::/3
  return blockList.check(w.map((x) => x.toString(16)).join(':'), 'ipv6')
}

/**
 * True when a connection to this IP address must be refused. Takes an address as DNS or a user
 * gives it: bracketed, with a zone id (fe80::1%eth0). Anything unparseable is refused.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const family = net.isIP(bare)
  if (family === 4) return blockList.check(bare, 'ipv4')
  if (family === 6) return isBlockedV6(bare.split('%')[0])
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
