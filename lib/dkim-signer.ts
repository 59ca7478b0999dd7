// DKIM-signs what leaves for the alias domain (RFC 6376, relaxed/relaxed, rsa-sha256) with the
// key of that domain. The signature covers From, Reply-To, To, Cc, Subject, Date, Message-ID and
// the MIME fields, so the rewritten headers are what a receiver verifies.
//
// Signing is ours rather than mailauth's dkimSign (mailauth still verifies, at the MX and in the
// tests): each key is parsed once, not per message, and the RSA operation runs on libuv's thread
// pool instead of the event loop. Together they were most of a delivery process's CPU per message.
//
// A forwarded message need not be held whole (docs/mail-flow.md, "Streaming"): `signStreamed` hashes the body as it
// is read from its source, then returns the signed message as a stream that reads the body again.
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import type { DkimKey } from './dkim-keys.ts'
import { planArcSet, type ArcFacts } from './arc-chain.ts'
import { splitMessage, type HeaderField } from './raw-message.ts'

const SIGNED = ['from', 'sender', 'reply-to', 'to', 'cc', 'subject', 'date', 'message-id', 'in-reply-to', 'references',
  'mime-version', 'content-type', 'content-transfer-encoding', 'list-unsubscribe', 'list-unsubscribe-post', 'x-veilmail-block-sender']

const signAsync = promisify(sign)

interface SigningKey { selector: string; key: KeyObject; /** d= */ domain: string }

/**
 * Keys of domains that are not MAIL_DOMAINS (custom domains, issue 29), looked up when a message
 * of theirs is signed: `id` names the key (a domain removed and added again has another), the
 * private key is opened only when the signer has not parsed that id yet.
 */
export type DomainKeyLookup = (domain: string) => Promise<{ id: string; selector: string; privateKey: () => string } | undefined>

export class DkimSigner {
  readonly #keys = new Map<string, SigningKey>()
  #lookup?: DomainKeyLookup
  readonly #parsed = new Map<string, SigningKey>() // by key id

  constructor(keys: Map<string, DkimKey>) {
    for (const [domain, k] of keys) this.#keys.set(domain, { selector: k.selector, key: createPrivateKey(k.privateKey), domain })
  }

  /** Where keys of other domains come from (set once, by the delivery's dependencies). */
  useDomainKeys(lookup: DomainKeyLookup): void {
    this.#lookup ??= lookup
  }

  async #signingKey(domain: string): Promise<SigningKey> {
    const own = this.#keys.get(domain)
    if (own) return own
    // a personal subdomain (<username>.<mail domain>) is signed by its mail domain: relaxed DMARC
    // alignment (RFC 7489 §3.1.1) takes the organizational domain
    const parent = [...this.#keys.values()].find((k) => domain.endsWith(`.${k.domain}`))
    if (parent) return parent
    // asked each time: a removed domain stops being signed for at once
    const found = await this.#lookup?.(domain)
    if (!found) throw new Error('no DKIM key for this alias domain')
    let key = this.#parsed.get(found.id)
    if (!key) {
      key = { selector: found.selector, key: createPrivateKey(found.privateKey()), domain }
      if (this.#parsed.size >= 1000) this.#parsed.delete(this.#parsed.keys().next().value!)
      this.#parsed.set(found.id, key)
    }
    return key
  }

  /** With `arc`, the message is ARC-sealed as well (RFC 8617, arc-chain.ts) by the service domain (the first mail domain). */
  async sign(raw: Buffer, domain: string, now = new Date(), arc?: ArcFacts): Promise<Buffer> {
    const { headers, body } = splitMessage(raw)
    const fields = await this.#fields(headers, new RelaxedBodyHash().update(body).digest(), domain, now, arc)
    return Buffer.concat([Buffer.from(fields, 'latin1'), raw])
  }

  /**
   * The message of `headers` and the body `body()` yields, signed, as a stream. The body is read
   * twice, once here for its hash and once as the stream is read, so `body` must yield the same
   * bytes each time (a spooled message does).
   */
  async signStreamed(headers: HeaderField[], body: () => AsyncIterable<Buffer>, domain: string, now = new Date(), arc?: ArcFacts): Promise<Readable> {
    const hash = new RelaxedBodyHash()
    for await (const chunk of body()) hash.update(chunk)
    const head = await this.#fields(headers, hash.digest(), domain, now, arc) + headers.map((h) => h.line + '\r\n').join('') + '\r\n'
    return Readable.from((async function* () {
      // The header leaves with the body's first piece: the relay connection writes each piece as it
      // comes (nodemailer, Nagle off), so a message of one spool chunk is one write, not two.
      let first: Buffer | undefined = Buffer.from(head, 'latin1')
      for await (const chunk of body()) {
        yield first ? Buffer.concat([first, chunk]) : chunk
        first = undefined
      }
      if (first) yield first
    })(), { objectMode: false })
  }

  /** The fields to put on top: the ARC set when asked for and one may be added, then the DKIM-Signature. */
  async #fields(headers: HeaderField[], bodyHash: string, domain: string, now: Date, arc: ArcFacts | undefined): Promise<string> {
    const [seal, dkim] = await Promise.all([arc ? this.#arcSet(headers, bodyHash, now, arc) : '', this.#signature(headers, bodyHash, await this.#signingKey(domain), now, 'DKIM-Signature: v=1;')])
    return seal + dkim
  }

  /**
   * ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results of our instance, CRLF-terminated
   * ('' when the chain may not be sealed again). The message signature is a DKIM signature of the
   * fields a DKIM signature of ours covers; the seal signs the sets before ours when they validated
   * (cv=pass), then our results and message signature, then itself without b= (RFC 8617 §5.1.1).
   */
  async #arcSet(headers: HeaderField[], bodyHash: string, now: Date, facts: ArcFacts): Promise<string> {
    const [service] = this.#keys.values()
    if (!service) return ''
    const plan = planArcSet(headers, facts, service.domain)
    if (!plan) return ''
    const ams = await this.#signature(headers, bodyHash, service, now, `ARC-Message-Signature: i=${plan.instance};`)
    const unsigned = [
      `ARC-Seal: i=${plan.instance}; a=rsa-sha256; t=${Math.floor(now.getTime() / 1000)}; cv=${plan.cv};`,
      ` d=${service.domain}; s=${service.selector};`,
      ' b=',
    ].join('\r\n')
    const sealed = [...plan.signed.flatMap((set) => set.fields.map((f) => f.line)), plan.results.line, ams.slice(0, -2)]
    const data = sealed.map((line) => relaxedHeader(line) + '\r\n').join('') + relaxedHeader(unsigned)
    const signature = (await signAsync('sha256', Buffer.from(data, 'latin1'), service.key)).toString('base64')
    return unsigned + (signature.match(/.{1,72}/g) ?? []).join('\r\n ') + '\r\n' + ams + plan.results.line + '\r\n'
  }

  /** A DKIM-Signature (or an ARC-Message-Signature, by its `head`), CRLF-terminated, for these header fields and body hash. */
  async #signature(headers: HeaderField[], bodyHash: string, signing: SigningKey, now: Date, head: string): Promise<string> {
    const signed = headersToSign(headers)
    const names = signed.map((h) => h.key)
    const unsigned = [
      `${head} a=rsa-sha256; c=relaxed/relaxed; d=${signing.domain}; s=${signing.selector};`,
      ` t=${Math.floor(now.getTime() / 1000)}; bh=${bodyHash};`,
      ...foldList(names, ' h='),
      ' b=',
    ].join('\r\n')
    const data = signed.map((h) => relaxedHeader(h.line) + '\r\n').join('') + relaxedHeader(unsigned)
    const signature = (await signAsync('sha256', Buffer.from(data, 'latin1'), signing.key)).toString('base64')
    return unsigned + (signature.match(/.{1,72}/g) ?? []).join('\r\n ') + '\r\n'
  }
}

/** Each listed field present, every instance of it, bottom-up as a verifier pairs them (RFC 6376 §5.4.2). */
function headersToSign(headers: HeaderField[]): HeaderField[] {
  const out: HeaderField[] = []
  for (const name of SIGNED) {
    for (let i = headers.length - 1; i >= 0; i--) if (headers[i].key === name) out.push(headers[i])
  }
  return out
}

/** RFC 6376 §3.4.2: lower-case name, unfolded value, runs of whitespace as one space, trimmed. */
function relaxedHeader(line: string): string {
  const colon = line.indexOf(':')
  const name = line.slice(0, colon).trim().toLowerCase()
  const value = line.slice(colon + 1).replace(/\r?\n/g, '').replace(/[ \t]+/g, ' ').trim()
  return `${name}:${value}`
}

/**
 * The body hash over RFC 6376 §3.4.4's relaxed form: whitespace runs as one space, none at line
 * ends, no empty lines at the end, CRLF line ends. Fed in pieces, line by line, so a large body is
 * neither held nor copied; a line cut between two pieces waits for its end. A piece's lines go to
 * the hash together (one update per piece, not per line: each update crosses into C++). Lines
 * already in relaxed form, as most are, go to the hash as their bytes (a 10 KB body: ~35 µs
 * instead of ~90 µs with a string made per line).
 */
export class RelaxedBodyHash {
  readonly #hash = createHash('sha256')
  #emptyLines = 0 // held back until a non-empty line shows they are not at the end
  #partial = Buffer.alloc(0)

  update(data: Buffer): this {
    const buf = this.#partial.length ? Buffer.concat([this.#partial, data]) : data
    // the piece's complete lines: up to and with its last LF
    const end = buf.lastIndexOf(0x0a) + 1
    if (end && alreadyRelaxed(buf, end)) this.#updateAsIs(buf, end)
    else {
      let start = 0
      let relaxed = ''
      for (let lf = buf.indexOf(0x0a); lf !== -1 && lf < end; lf = buf.indexOf(0x0a, start)) {
        relaxed += this.#line(buf, start, lf)
        start = lf + 1
      }
      if (relaxed) this.#hash.update(relaxed, 'latin1')
    }
    this.#partial = Buffer.from(buf.subarray(end))
    return this
  }

  /**
   * Lines that are their own relaxed form (alreadyRelaxed) go to the hash as the bytes they are,
   * without a string per line; only the empty lines at their end are held back.
   */
  #updateAsIs(buf: Buffer, end: number): void {
    let last = end // the end of the last non-empty line
    let empty = 0
    // an empty line is a CRLF at the start of a line
    while (last >= 2 && (last === 2 || buf[last - 3] === 0x0a)) {
      last -= 2
      empty++
    }
    if (!last) {
      this.#emptyLines += empty
      return
    }
    if (this.#emptyLines) this.#hash.update('\r\n'.repeat(this.#emptyLines), 'latin1')
    this.#hash.update(buf.subarray(0, last))
    this.#emptyLines = empty
  }

  digest(): string {
    if (this.#partial.length) this.#hash.update(this.#line(this.#partial, 0, this.#partial.length), 'latin1')
    return this.#hash.digest('base64')
  }

  /** The line in relaxed form with the empty lines held back before it, '' while it is empty itself. */
  #line(buf: Buffer, start: number, end: number): string {
    let line = buf.toString('latin1', start, end > start && buf[end - 1] === 0x0d ? end - 1 : end)
    // most lines have no run of whitespace to collapse: only those pay for the regular expression
    if (line.includes('\t') || line.includes('  ')) line = line.replace(/[ \t]+/g, ' ')
    if (line.endsWith(' ')) line = line.slice(0, -1)
    if (!line) {
      this.#emptyLines++
      return ''
    }
    const held = this.#emptyLines ? '\r\n'.repeat(this.#emptyLines) : ''
    this.#emptyLines = 0
    return held + line + '\r\n'
  }
}

/**
 * Whether the first `end` bytes (whole lines) are already in relaxed form, as most bodies are:
 * every line ends in CRLF, and there is no tab, no run of spaces and no space at a line's end.
 */
function alreadyRelaxed(buf: Buffer, end: number): boolean {
  // one pass over the bytes: cheaper than a native search per line or per pattern
  for (let i = 0; i < end; i++) {
    const byte = buf[i]
    if (byte > 0x20) continue
    if (byte === 0x09) return false
    // a space before a space or a line's end (a CR is taken as one)
    if (byte === 0x20 && (buf[i + 1] === 0x20 || buf[i + 1] === 0x0d)) return false
    if (byte === 0x0a && (i === 0 || buf[i - 1] !== 0x0d)) return false
  }
  return true
}

/** `h=a:b:c`, folded before a name when a line would pass 76 characters. */
function foldList(names: string[], prefix: string): string[] {
  const lines: string[] = []
  let line = prefix
  for (const [i, name] of names.entries()) {
    const piece = (i ? ':' : '') + name
    if (line.length + piece.length > 76 && i) {
      lines.push(line + ':')
      line = ' ' + name
    } else line += piece
  }
  lines.push(line + ';')
  return lines
}
