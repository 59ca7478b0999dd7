// The client's address, for rate limits. Behind reverse proxies each proxy appends the address it
// was connected from to X-Forwarded-For, so only the right-most entries were written by proxies
// we trust; everything to their left is whatever the client sent. We walk from the socket
// leftwards over our own proxies and take the first hop they vouch for (the right-most
// untrusted one), never the left-most entry.
import { BlockList, isIP } from 'node:net'
import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { TrustProxy } from '../../lib/config.ts'
import type { AppEnv } from '../context.ts'

export function clientIp<E extends AppEnv>(c: Context<E>): string {
  let socket: string
  try {
    socket = normalizeIp(getConnInfo(c).remote.address ?? '') ?? 'unknown'
  } catch {
    socket = 'unknown' // app.request() in tests has no socket
  }
  return pickClientIp(c.var.deps.config.trustProxy, socket, c.req.header('x-forwarded-for'))
}

/** The right-most untrusted hop of `X-Forwarded-For, socket`. */
export function pickClientIp(trust: TrustProxy, socket: string, forwardedFor: string | undefined): string {
  if ('hops' in trust && trust.hops === 0) return socket
  // Nearest hop last: the socket, then what each proxy appended, right to left.
  const chain = [...(forwardedFor ?? '').split(',').map((entry) => entry.trim()).filter(Boolean), socket]
  let i = chain.length - 1
  if ('hops' in trust) i = Math.max(0, i - trust.hops) // too few hops: the farthest one a proxy wrote
  else while (i > 0 && isTrustedProxy(trust.proxies, chain[i])) i--
  // A proxy we trust writes addresses; anything else here came from the client, so it must not
  // become a rate-limit key of its choosing: fall back to the hop that handed it over.
  for (; i < chain.length - 1; i++) {
    const address = normalizeIp(chain[i])
    if (address) return address
  }
  return socket
}

/** An IP address in one canonical spelling (IPv4-mapped IPv6 as IPv4, ports and brackets off), or undefined. */
export function normalizeIp(value: string): string | undefined {
  let s = value.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s)
  if (bracketed) s = bracketed[1]
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'))
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(s)
  if (mapped) s = mapped[1]
  const family = isIP(s)
  if (family === 4) return s
  if (family === 6) return new URL(`http://[${s}]/`).hostname.slice(1, -1) // WHATWG canonical form
  return undefined
}

const lists = new WeakMap<string[], BlockList>()
const familyOf = (address: string) => (isIP(address) === 4 ? 'ipv4' : 'ipv6')

function isTrustedProxy(proxies: string[], hop: string): boolean {
  const address = normalizeIp(hop)
  if (!address) return false
  let list = lists.get(proxies)
  if (!list) {
    list = new BlockList()
    for (const proxy of proxies) {
      const [base, prefix] = proxy.split('/')
      const canonical = normalizeIp(base) ?? base
      list.addSubnet(canonical, prefix === undefined ? (familyOf(canonical) === 'ipv4' ? 32 : 128) : Number(prefix), familyOf(canonical))
    }
    lists.set(proxies, list)
  }
  return list.check(address, familyOf(address))
}
