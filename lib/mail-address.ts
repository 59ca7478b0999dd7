// Strict parsing of envelope addresses (RFC 5321 §4.1.2 Mailbox) for routing. Only the plain
// dot-atom form we issue is routable: a quoted local part, an encoded word, a comment, a route,
// control characters or a second "@" never match, so they can not misroute.

/** Local parts we issue: aliases (letters, digits, . - _), reverse aliases (re+…), SRS (srs0=…, which can pass 64 octets). */
const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._+=-]{0,126}[a-z0-9])?$/i
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i

export interface ParsedAddress {
  localPart: string
  /** lower-cased */
  domain: string
}

/** Splits an envelope address; undefined unless it is a plain `local@domain` we could route. */
export function parseEnvelopeAddress(address: string): ParsedAddress | undefined {
  if (typeof address !== 'string' || address.length > 254) return undefined
  const at = address.lastIndexOf('@')
  if (at <= 0 || at === address.length - 1) return undefined
  const localPart = address.slice(0, at)
  const domain = address.slice(at + 1).toLowerCase()
  if (!LOCAL_PART.test(localPart) || localPart.includes('..')) return undefined
  if (!DOMAIN.test(domain)) return undefined
  return { localPart, domain }
}

/** The domain part of any address, lower-cased, for comparisons ("" when there is none). */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@')
  return at < 0 ? '' : address.slice(at + 1).toLowerCase()
}

/** Addresses compare case-insensitively in practice (RFC 5321 §2.4 allows case-sensitive local parts, no one uses them). */
export function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}
