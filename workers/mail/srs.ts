// Sender Rewriting Scheme for forwarded mail (SRS, after RFC 7208 §9.3's advice for forwarders):
// the envelope sender becomes SRS0=HASH=TT=domain=local@alias-domain, so SPF passes for our
// domain and bounces come back to us. HASH is an HMAC (from SECRET_KEY) over the rest, TT the
// day it was made; bounces to an address without a valid, recent hash are refused. We never
// forward a bounce on (that would reveal the recipient and could loop).
import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'
const MAX_AGE_DAYS = 21

function base32(bytes: Uint8Array, length: number): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5 && out.length < length) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return out
}

export class Srs {
  // a KeyObject made once: from bytes, Node would make one per hash (a forward's largest HMAC cost)
  readonly #key: KeyObject

  constructor(secretKey: string) {
    this.#key = createSecretKey(Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'srs', 32)))
  }

  #hash(tt: string, domain: string, local: string): string {
    const mac = createHmac('sha256', this.#key).update(`${tt}=${domain.toLowerCase()}=${local.toLowerCase()}`).digest()
    return base32(mac, 8)
  }

  /**
   * The (alias, target) a forward went to, or (kind 'test') a forward target's test mail and its
   * target, as 10 base32 characters: it rides in the SRS address, under its hash, so a delivery
   * report sent back to that address can be bound to the one pair (issue 30) and to nothing a
   * report names on its own. The first 5 characters are the first 25 bits of the subject's id (a
   * random uuid, no secret), so the MX looks the subject up by its primary key (`tagIdRange`)
   * instead of trying every alias; the other 5 are 25 bits of an HMAC of the id and the target.
   */
  bounceTag(subjectId: string, target: string, kind: 'alias' | 'test' = 'alias'): string {
    const label = kind === 'alias' ? 'bounce' : 'bounce-test'
    const mac = createHmac('sha256', this.#key).update(`${label}=${subjectId.toLowerCase()}=${target.toLowerCase()}`).digest()
    return base32(Buffer.from(subjectId.replace(/-/g, '').slice(0, 8), 'hex'), 5) + base32(mac, 5)
  }

  /**
   * The tag forwards carried before tags named their alias (10 characters of an HMAC of alias and
   * target): a report to such an address, issued up to MAX_AGE_DAYS before this change, is still
   * matched by trying the aliases forwarding to the target (reported-bounces.ts). Remove once no
   * address of that form can still be valid (21 days after the release that brought tagIdRange).
   */
  legacyBounceTag(aliasId: string, target: string): string {
    return base32(createHmac('sha256', this.#key).update(`bounce=${aliasId.toLowerCase()}=${target.toLowerCase()}`).digest(), 10)
  }

  /** The uuids whose first 25 bits a bounce tag names (from, to inclusive, in Postgres's uuid order). */
  static tagIdRange(tag: string): { from: string; to: string } {
    let bits = 0
    for (const c of tag.slice(0, 5).toLowerCase()) bits = bits * 32 + BASE32.indexOf(c)
    const hex = (n: number) => n.toString(16).padStart(7, '0') // 28 bits: the 25 and 3 free ones
    return { from: `${hex(bits * 8)}0-0000-0000-0000-000000000000`, to: `${hex(bits * 8 + 7)}f-ffff-ffff-ffff-ffffffffffff` }
  }

  /**
   * The rewritten sender; the null sender stays null (RFC 5321 §4.5.5). With a bounce tag the
   * time stamp is followed by it (TT + 10 characters), covered by the hash like the rest.
   */
  forward(sender: string, aliasDomain: string, now = Date.now(), tag = ''): string {
    if (!sender) return ''
    const at = sender.lastIndexOf('@')
    const local = sender.slice(0, at)
    const domain = sender.slice(at + 1)
    const day = Math.floor(now / 86_400_000) % 1024
    const tt = BASE32[day >> 5] + BASE32[day & 31] + tag
    return `SRS0=${this.#hash(tt, domain, local)}=${tt}=${domain}=${local}@${aliasDomain}`
  }

  /** An SRS0 address we made in the last 21 days, with its bounce tag ('' without); undefined otherwise. */
  parse(localPart: string, now = Date.now()): { tag: string } | undefined {
    const m = /^srs0=([a-z2-7]{8})=([a-z2-7]{2}(?:[a-z2-7]{10})?)=([^=]+)=(.+)$/i.exec(localPart)
    if (!m) return undefined
    const [, hash, stamp, domain, local] = m
    const tt = stamp.toLowerCase()
    if (this.#hash(tt, domain, local) !== hash.toLowerCase()) return undefined
    const made = BASE32.indexOf(tt[0]) * 32 + BASE32.indexOf(tt[1])
    const today = Math.floor(now / 86_400_000) % 1024
    return (today - made + 1024) % 1024 <= MAX_AGE_DAYS ? { tag: tt.slice(2) } : undefined
  }

  /** True when `localPart` is an SRS0 address we made in the last 21 days. */
  verify(localPart: string, now = Date.now()): boolean {
    return this.parse(localPart, now) !== undefined
  }

  static looksLikeSrs(localPart: string): boolean {
    return /^srs[01]=/i.test(localPart)
  }
}
