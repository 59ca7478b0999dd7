// Sender authentication: SPF (RFC 7208), DKIM (RFC 6376), DMARC (RFC 7489) and ARC (RFC 8617)
// with mailauth, through a resolver with short timeouts. The MX runs it while DATA streams in when
// the answer to the client depends on it: the author domain publishes an enforcing DMARC policy
// (`enforcingDmarcPolicy`; p=reject failures are refused in the session), or the message is a reply
// through a reverse alias. Otherwise the results decide nothing at the MX, and the delivery runs
// the same check on the spooled message (Authentication-Results, webhook payload), so the MX
// does not pay for it on every accepted message. The delivery's checks share their SPF results
// (spf-cache.ts): a run of mail from one sender through one server evaluates its policy once.
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { Readable } from 'node:stream'
import { arc, dkimVerify, spf, type DKIMVerifyResult, type DMARCResult, type SPFResult } from 'mailauth'
import addressparser from 'nodemailer/lib/addressparser'
import type { DnsResolver } from '../../lib/dns-resolver.ts'
import './header-end-fast-path.ts'
import { SpfCache, type SpfQuestion } from './spf-cache.ts'
import { readHeaderBytes, type HeaderField } from '../../lib/raw-message.ts'
import type { AuthSummary, SpoolMeta, StoredMeta } from './spool-codec.ts'

export interface AuthInput {
  ip: string
  helo: string
  sender: string
  mta: string
  resolver: DnsResolver
  /** the whole check gives up after this long (from the end of the message): every result is then temperror */
  timeoutMs: number
  /** SPF results remembered across messages; each message evaluates its own without */
  spfCache?: SpfCache
}

export interface AuthOutcome extends AuthSummary {
  /** DMARC failed and the author domain asks for reject (RFC 7489 §6.3, after pct/t=y) */
  dmarcReject: boolean
}

const timedOut = (mta: string): AuthSummary => ({
  spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', arc: 'temperror', dkimPassDomains: [], dkimFailDomains: [],
  headers: `Authentication-Results: ${mta}; dkim=temperror; spf=temperror; dmarc=temperror\r\n`,
})

/**
 * `message` whole, or as a stream that is being received: mailauth hashes the body as it comes
 * (RFC 6376 §3.7) and the lookups start at its end, which is when the time limit starts too.
 */
export async function checkAuthentication(message: Buffer | Readable, input: AuthInput): Promise<AuthOutcome> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<undefined>((resolve) => {
    const start = () => { timer = setTimeout(() => resolve(undefined), input.timeoutMs) }
    if (Buffer.isBuffer(message)) start()
    // at its end, or when it failed (a spooled message that does not read)
    else message.once('close', start)
  })
  try {
    const check = (q: SpfQuestion) => (input.spfCache ? input.spfCache.check(q) : spf({ ...q, resolver: input.resolver }))
    const result = await Promise.race([authenticate(message, input, check), deadline])
    if (!result) return { ...timedOut(input.mta), dmarcReject: false }
    return outcomeOf(result)
  } finally {
    clearTimeout(timer)
  }
}

/** What the MX and the delivery keep of an authentication (mailauth's authenticate() or ours, which has its shape). */
export function outcomeOf(result: Pick<Authenticated, 'dkim' | 'spf' | 'arc' | 'dmarc' | 'headers'>): AuthOutcome {
  const dkim = result.dkim.results
  const passing = dkim.filter((r) => r.status.result === 'pass')
  const dmarc = result.dmarc || undefined
  return {
    spf: result.spf ? result.spf.status.result : 'none',
    dkim: passing.length ? 'pass' : (dkim[0]?.status.result ?? 'none'),
    dmarc: dmarc ? dmarc.status.result : 'none',
    arc: result.arc ? result.arc.status.result : 'none',
    dkimPassDomains: passing.map((r) => (r.signingDomain ?? '').toLowerCase()).filter(Boolean),
    dkimFailDomains: dkim.filter((r) => r.status.result === 'fail').map((r) => (r.signingDomain ?? '').toLowerCase()).filter(Boolean),
    headers: result.headers.replace(/\r?\n/g, '\r\n').replace(/(\r\n)?$/, '\r\n'),
    dmarcReject: dmarc?.status.result === 'fail' && dmarc.policy === 'reject',
  }
}

const require = createRequire(import.meta.url)
// mailauth's own pieces of authenticate() (lib/mailauth.js), which runs SPF itself: the deferred
// check takes its SPF result from a cache (spf-cache.ts) and otherwise does what authenticate()
// does with the options used here (no Received parsing, no ARC seal, no BIMI, lenient mode).
const mailauthRequire = createRequire(require.resolve('mailauth'))
const { evaluateDmarc } = mailauthRequire('./dmarc/index.js') as {
  evaluateDmarc(opts: Record<string, unknown>): Promise<{ response: DMARCResult | false }>
}
const { formatAuthservId } = mailauthRequire('./tools.js') as { formatAuthservId(id: string, strict: boolean): string }
const { foldLines } = mailauthRequire('libmime') as { foldLines(text: string, lineLength: number): string }

interface Authenticated {
  dkim: DKIMVerifyResult
  spf: SPFResult
  arc: { status: { result: string }; info?: string }
  dmarc: DMARCResult | false
  /** Received-SPF (RFC 7208 §9.1) and Authentication-Results (RFC 8601), as authenticate() makes them */
  headers: string
}

/** mailauth's authenticate() for `input`, with the SPF result from `checkSpf`. */
async function authenticate(message: Buffer | Readable, input: AuthInput, checkSpf: (q: SpfQuestion) => Promise<SPFResult>): Promise<Authenticated> {
  const { resolver } = input
  const authservId = formatAuthservId(input.mta, false)
  const dkim = await dkimVerify(message, { resolver, sender: input.sender })
  const helo = input.helo || input.ip
  // an address literal, as RFC 5321 §4.1.3 writes it
  const spfResult = await checkSpf({ ip: input.ip, helo: helo && isIP(helo) ? `[${helo}]` : helo, sender: input.sender, mta: input.mta })
  const arcResult = await arc((dkim as unknown as { arc: Parameters<typeof arc>[0] }).arc, { resolver, strict: false, ip: input.ip } as Parameters<typeof arc>[1]) as Authenticated['arc']
  const results = [...dkim.results.map((r) => foldLines(r.info, 160)), foldLines(spfResult.info, 160)]
  if (arcResult?.info) results.push(foldLines(arcResult.info, 160))
  let dmarc: DMARCResult | false = false
  if (dkim.headerFrom) {
    dmarc = (await evaluateDmarc({
      headerFrom: dkim.headerFrom,
      fromFields: dkim.fromFields,
      spfDomains: spfResult.status.result === 'pass' && spfResult.domain ? [spfResult.domain] : [],
      dkimDomains: dkim.results.filter((r) => r.status.result === 'pass')
        .map((r) => ({ id: r.id, domain: r.signingDomain, aligned: r.status.aligned, underSized: r.status.underSized })),
      arcResult,
      resolver,
      strict: false,
    })).response
    if (dmarc && dmarc.info) results.push(foldLines(dmarc.info, 160))
  }
  const fields = [...(spfResult.header ? [spfResult.header] : []), `Authentication-Results: ${authservId};\r\n ${results.join(';\r\n ')}`]
  return { dkim, spf: spfResult, arc: arcResult, dmarc, headers: fields.join('\r\n') + '\r\n' }
}

// mailauth's own policy discovery (RFC 7489 §6.6.3) and author domain (§3.1, IDNs as A-labels),
// so the MX decides on what its DMARC check will use; mailauth ships no types for them.
const getDmarcRecord = require('mailauth/lib/dmarc/get-dmarc-record.js') as
  (domain: string, resolver: DnsResolver) => Promise<false | { p?: string; sp?: string; np?: string }>
const { getAuthorDomain } = require('mailauth/lib/dmarc/author-domain.js') as
  { getAuthorDomain(addresses: string[], fromFields: number): { authorDomain?: string } }

/**
 * `local@domain` or `Name <local@domain>` with nothing a full parse could read another way (no
 * comment, quoted-pair, group, second address or second @): most From fields, read without the
 * address parser, which was a visible part of the MX's CPU per message.
 */
const PLAIN_FROM = /^\s*(?:(?:"[^"\\\r\n]*"|[^"<>@,;:\\()[\]\r\n]*)<([^\s"<>@,;:\\()[\]]+@[^\s"<>@,;:\\()[\]]+)>|([^\s"<>@,;:\\()[\]]+@[^\s"<>@,;:\\()[\]]+))\s*$/

/** The author domain of a message's From fields (RFC 7489 §3.1); undefined unless there is exactly one. */
export function authorDomainOf(fromFields: string[]): string | undefined {
  if (fromFields.length !== 1) return undefined
  const plain = PLAIN_FROM.exec(fromFields[0])
  const addresses = plain ? [plain[1] ?? plain[2]] : addressparser(fromFields[0], { flatten: true }).map((m) => m.address).filter(Boolean)
  return getAuthorDomain(addresses, 1).authorDomain
}

const ENFORCING = new Set(['reject', 'quarantine'])

/**
 * Whether DMARC may ask the MX to refuse mail from this author domain (RFC 7489 §6.3): the policy
 * record that applies to it (its own, or its organizational domain's, RFC 7489 §6.6.3) has p, sp
 * or np at quarantine or reject. Unknown (no single author domain, a DNS failure) counts as
 * enforcing, so the check runs in the session as before. The lookups go through the resolver's cache.
 */
export async function enforcingDmarcPolicy(authorDomain: string | undefined, resolver: DnsResolver): Promise<boolean> {
  if (!authorDomain) return true
  try {
    const record = await getDmarcRecord(authorDomain, resolver)
    if (!record) return false
    return [record.p, record.sp, record.np].some((p) => ENFORCING.has(String(p ?? '').toLowerCase()))
  } catch {
    return true
  }
}

export interface DeferredAuthDeps {
  resolver: DnsResolver
  /** the MX's name: the authserv-id of Authentication-Results (RFC 8601 §2.5) */
  mxHostname: string
  dnsTimeoutMs: number
  /** SPF results shared by the checks (DeferredAuth makes one on `resolver`) */
  spfCache?: SpfCache
}

/**
 * A spooled message's meta with its authentication results: those the MX stored, or else the
 * check run now on the spooled bytes, with the envelope and client the MX recorded.
 */
export async function authenticatedMeta(meta: StoredMeta, message: () => AsyncIterable<Buffer>, deps: DeferredAuthDeps): Promise<SpoolMeta> {
  if (meta.auth) return meta as SpoolMeta
  const input = Readable.from(message())
  let unread = false
  input.once('error', () => { unread = true })
  const options = { ip: meta.remoteAddress, helo: meta.helo, sender: meta.mailFrom, mta: deps.mxHostname, resolver: deps.resolver, timeoutMs: deps.dnsTimeoutMs * 4, spfCache: deps.spfCache }
  const outcome = await checkAuthentication(input, options).catch(() => undefined)
  // a message that does not read has no results: the step's own read meets the same failure and ends the delivery
  if (!outcome || unread) return { ...meta, auth: timedOut(options.mta) }
  const { dmarcReject: _, ...auth } = outcome
  return { ...meta, auth }
}

/** A spooled message as the check reads it (SpooledMessage). */
export interface CheckedMessage {
  headers(): Promise<HeaderField[]>
  chunks(): AsyncIterable<Buffer>
}

/**
 * Only a signature covers the body: DKIM-Signature (RFC 6376 §3.7) and ARC-Message-Signature
 * (RFC 8617 §4.1.2); any ARC field counts, so a chain is always checked on the whole message.
 */
const signsBody = (headers: HeaderField[]) => headers.some((h) => h.key === 'dkim-signature' || h.key.startsWith('arc-'))

/** The message's header as it was spooled (up to and with the empty line), from its first chunks. */
async function* headerBytes(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield (await readHeaderBytes(chunks)).head
}

/**
 * What the check reads of a message: all of it when a signature covers its body, else only its
 * header. SPF, DMARC and ARC's chain results do not depend on the body, and a message without a
 * signature has DKIM none whatever its body is: the body (up to MAX_MESSAGE_BYTES) is then neither
 * read from the spool again nor hashed by mailauth.
 */
async function* checkedBytes(message: CheckedMessage): AsyncGenerator<Buffer> {
  yield* signsBody(await message.headers()) ? message.chunks() : headerBytes(message.chunks())
}

/**
 * The deferred check once per message, not once per target: the deliveries of one message (fetched
 * together, as the MX queues them together) share one run in this process, and the step stores the
 * results with the message (delivery-step.ts) for the deliveries that run later or elsewhere.
 * The last `keep` messages' checks are remembered (a few hundred bytes each).
 */
export class DeferredAuth {
  readonly #deps: DeferredAuthDeps
  readonly #keep: number
  readonly #checks = new Map<string, Promise<SpoolMeta>>()

  constructor(deps: DeferredAuthDeps, keep = 1000) {
    this.#deps = { ...deps, spfCache: deps.spfCache ?? new SpfCache(deps.resolver) }
    this.#keep = keep
  }

  /** `meta` of spooled message `spoolId` with its results, checked here unless the MX or an earlier check stored them. */
  metaOf(spoolId: string, meta: StoredMeta, message: CheckedMessage): Promise<SpoolMeta> {
    if (meta.auth) return Promise.resolve(meta as SpoolMeta)
    let check = this.#checks.get(spoolId)
    if (!check) {
      check = authenticatedMeta(meta, () => checkedBytes(message), this.#deps)
      this.#checks.set(spoolId, check)
      // a Map iterates in insertion order: the first key is the oldest check
      if (this.#checks.size > this.#keep) this.#checks.delete(this.#checks.keys().next().value!)
    }
    return check
  }
}
