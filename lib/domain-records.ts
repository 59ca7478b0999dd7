// The DNS records a custom domain publishes (issue 29) and their check: ownership (TXT
// `veilmail-verification=<token>` at the domain), MX to our MX host, SPF including the service's
// SPF domain (RFC 7208), the domain's DKIM key at `<selector>._domainkey` (RFC 6376 §3.6.2) and a
// DMARC policy (RFC 7489 §6.1, a suggestion: any policy is accepted). What a DNS server answers is
// input: only the records of the asked type are read, each cut to a bounded length.
import type { DnsResolver } from './dns-resolver.ts'
import type { DomainRecordView, RecordPurpose, RecordState } from '../shared/domain-schemas.ts'

export interface DomainRecordParams {
  domain: string
  verificationToken: string
  /** `v=DKIM1; k=rsa; p=…` */
  dkimRecord: string
  dkimSelector: string
  mxHostname: string
  /** the domain whose SPF record lists the service's sending hosts */
  spfDomain: string
}

export type RecordStates = Partial<Record<RecordPurpose, { state: RecordState; found: string[] }>>

const MAX_FOUND = 10
const MAX_VALUE = 600

export function domainRecords(p: DomainRecordParams, states: RecordStates = {}): DomainRecordView[] {
  const records: Omit<DomainRecordView, 'state' | 'found'>[] = [
    { purpose: 'ownership', type: 'TXT', name: p.domain, value: `veilmail-verification=${p.verificationToken}` },
    { purpose: 'mx', type: 'MX', name: p.domain, value: `10 ${p.mxHostname}` },
    { purpose: 'spf', type: 'TXT', name: p.domain, value: `v=spf1 include:${p.spfDomain} ~all` },
    { purpose: 'dkim', type: 'TXT', name: `${p.dkimSelector}._domainkey.${p.domain}`, value: p.dkimRecord },
    { purpose: 'dmarc', type: 'TXT', name: `_dmarc.${p.domain}`, value: 'v=DMARC1; p=quarantine; adkim=s; aspf=r' },
  ]
  return records.map((r) => ({ ...r, state: states[r.purpose]?.state ?? 'unchecked', found: states[r.purpose]?.found ?? [] }))
}

/** TXT answers as their strings joined (RFC 7208 §3.3, RFC 6376 §3.6.2.2), bounded. */
async function txt(resolver: DnsResolver, name: string): Promise<string[] | 'error'> {
  try {
    const answer = (await resolver(name, 'TXT')) as string[][]
    return answer.slice(0, 50).map((parts) => (Array.isArray(parts) ? parts.join('') : String(parts)).slice(0, 4096))
  } catch (error) {
    const code = (error as { code?: string }).code
    return code === 'ENOTFOUND' || code === 'ENODATA' ? [] : 'error'
  }
}

const cut = (values: string[]) => values.slice(0, MAX_FOUND).map((s) => (s.length > MAX_VALUE ? s.slice(0, MAX_VALUE) + '…' : s))
const lower = (s: string) => s.toLowerCase().replace(/\.$/, '')
const dkimKey = (record: string) => /(?:^|;)\s*p=([^;]*)/i.exec(record)?.[1].replace(/\s+/g, '') ?? ''

function judge(found: string[] | 'error', matching: (s: string) => boolean, right: (s: string) => boolean): { state: RecordState; found: string[] } {
  // a failed lookup (timeout, SERVFAIL) is reported as missing: nothing could be seen
  if (found === 'error') return { state: 'missing', found: [] }
  const relevant = found.filter(matching)
  if (!relevant.length) return { state: 'missing', found: [] }
  return { state: relevant.some(right) ? 'ok' : 'wrong', found: cut(relevant) }
}

/** Resolves each record through `resolver` and says of each: ok, missing or wrong, with what was there. */
export async function checkDomainRecords(resolver: DnsResolver, p: DomainRecordParams): Promise<RecordStates> {
  const [apex, dkim, dmarc, mx] = await Promise.all([
    txt(resolver, p.domain),
    txt(resolver, `${p.dkimSelector}._domainkey.${p.domain}`),
    txt(resolver, `_dmarc.${p.domain}`),
    resolver(p.domain, 'MX').then(
      (answer) => (answer as unknown as { exchange: string; priority: number }[]).slice(0, 50).map((r) => `${r.priority} ${String(r.exchange).slice(0, 255)}`),
      (error) => (['ENOTFOUND', 'ENODATA'].includes((error as { code?: string }).code ?? '') ? [] : ('error' as const)),
    ),
  ])
  const token = `veilmail-verification=${p.verificationToken}`
  const ourKey = dkimKey(p.dkimRecord)
  const includes = new RegExp(`(^|\\s)[+]?include:${p.spfDomain.replace(/\./g, '\\.')}\\.?(\\s|$)`, 'i')
  return {
    ownership: judge(apex, (s) => s.startsWith('veilmail-verification='), (s) => s.trim() === token),
    mx: judge(mx, () => true, (s) => lower(s.split(' ')[1] ?? '') === lower(p.mxHostname)),
    spf: judge(apex, (s) => /^v=spf1(\s|$)/i.test(s), (s) => includes.test(s)),
    dkim: judge(dkim, () => true, (s) => /v=DKIM1/i.test(s) && dkimKey(s) === ourKey),
    dmarc: judge(dmarc, (s) => /^v=DMARC1/i.test(s), () => true),
  }
}
