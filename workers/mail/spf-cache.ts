// SPF results (RFC 7208) remembered for as long as the DNS answers they were made of. check_host()
// (RFC 7208 §4) is a function of the client IP, the HELO name, the MAIL FROM address and DNS
// alone (our authserv-id only appears in the result's comment), so a second message with the same
// four gets the same result without evaluating the policy again: mail from one sender through one
// server comes in runs, and the evaluation (record parsing, domain validation, address matching,
// mailauth's result text) was the largest part of the deferred authentication check.
// A result is kept until the first of the answers it read expires from the resolver's cache (their
// TTLs, or the negative TTL of RFC 2308), and not at all when one of them is not cached there (a
// timeout or server failure: a temperror must be asked again). The whole envelope is the key, not
// only its domain: a policy may expand the local part (%{l}, RFC 7208 §7.3) and the result text
// names the full address.
import { spf, type SPFResult } from 'mailauth'
import type { DnsResolver } from '../../lib/dns-resolver.ts'

export interface SpfQuestion {
  ip: string
  /** as mailauth's authenticate() passes it: an address literal in brackets */
  helo: string
  /** MAIL FROM, '' for the null sender (the HELO identity is checked, RFC 7208 §2.4) */
  sender: string
  /** authserv-id of the result's comment */
  mta: string
}

/** A resolver whose answers' lifetimes can be read (lib/dns-resolver.ts); without that nothing is kept. */
export type TtlResolver = DnsResolver & { expiresAt?(name: string, rrtype: string): number | undefined }

interface Entry {
  result: Promise<SPFResult>
  /** ms since the epoch; Infinity while the check runs (concurrent messages share it) */
  expires: number
}

export class SpfCache {
  readonly #resolver: TtlResolver
  readonly #max: number
  readonly #entries = new Map<string, Entry>()

  /** `max`: envelopes remembered (a result is about 1.5 KB); the oldest go first */
  constructor(resolver: TtlResolver, max = 2000) {
    this.#resolver = resolver
    this.#max = max
  }

  /** The SPF result for this envelope: remembered, or evaluated now. Callers must not change it (it is shared). */
  check(question: SpfQuestion): Promise<SPFResult> {
    // JSON of the four: no HELO or address, whatever characters it holds, can spell another's key
    const key = JSON.stringify([question.ip, question.helo, question.sender, question.mta])
    const hit = this.#entries.get(key)
    if (hit && hit.expires > Date.now()) return hit.result
    if (hit) this.#entries.delete(key)
    const resolver = this.#resolver
    const asked: [string, string][] = []
    const tracking: DnsResolver = (name, rrtype) => {
      asked.push([name, rrtype])
      return resolver(name, rrtype)
    }
    const entry: Entry = { result: spf({ ...question, resolver: tracking }), expires: Infinity }
    this.#entries.set(key, entry)
    while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!)
    const forget = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key)
    }
    entry.result.then((result) => {
      const expiries = asked.map(([name, rrtype]) => resolver.expiresAt?.(name, rrtype))
      if (result.status.result === 'temperror' || expiries.some((e) => e === undefined)) return forget()
      entry.expires = Math.min(...(expiries as number[]))
    }, forget)
    return entry.result
  }
}
