// The DNS resolver mailauth uses for SPF, DKIM, DMARC and ARC. Node's default can wait more
// than a minute on a silent server; this one gives each query a short timeout and one retry,
// and a hard deadline on top, after which the query fails as ETIMEOUT (a temperror, RFC 7208 §2.6.6).
import { Resolver } from 'node:dns/promises'

export type DnsResolver = (name: string, rrtype: string) => Promise<string[][] | string[]>

export function createDnsResolver(timeoutMs: number, servers?: string[]): DnsResolver {
  const resolver = new Resolver({ timeout: Math.max(100, Math.floor(timeoutMs / 2)), tries: 2 })
  if (servers?.length) resolver.setServers(servers)
  return (name, rrtype) => {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), timeoutMs)
    })
    return Promise.race([resolver.resolve(name, rrtype) as Promise<string[][] | string[]>, deadline]).finally(() => clearTimeout(timer))
  }
}
