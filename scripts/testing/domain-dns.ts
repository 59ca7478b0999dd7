// Publishes a custom domain's records (or chosen wrong ones) on the DNS stand-in, as a user would
// at their DNS host: TXT values over 255 octets split into several strings (RFC 7208 §3.3).
import type { DomainRecordView, RecordPurpose } from '../../shared/domain-schemas.ts'
import type { DnsStandIn } from './dns-stand-in.ts'

const strings = (value: string) => value.match(/.{1,255}/g) ?? ['']

/** Sets the TXT records at `name` (replacing what was there); none = the name has no TXT. */
export function publishTxt(dns: DnsStandIn, name: string, values: string[]): void {
  const key = `${name.toLowerCase()} TXT`
  if (!values.length) delete dns.records[key]
  else dns.records[key] = { ttl: 300, data: values.map((v) => ({ type: 'TXT' as const, value: strings(v) })) }
}

export function publishMx(dns: DnsStandIn, name: string, exchanges: string[]): void {
  const key = `${name.toLowerCase()} MX`
  if (!exchanges.length) delete dns.records[key]
  else dns.records[key] = { ttl: 300, data: exchanges.map((exchange, i) => ({ type: 'MX' as const, priority: 10 * (i + 1), exchange })) }
}

/** Publishes the records Veilmail asked for, those of `purposes` only (all by default). */
export function publishRecords(dns: DnsStandIn, records: DomainRecordView[], purposes: RecordPurpose[] = ['ownership', 'mx', 'spf', 'dkim', 'dmarc']): void {
  const txt = new Map<string, string[]>()
  for (const r of records.filter((r) => purposes.includes(r.purpose))) {
    if (r.type === 'MX') publishMx(dns, r.name, [r.value.split(' ')[1]])
    else txt.set(r.name, [...(txt.get(r.name) ?? []), r.value])
  }
  for (const [name, values] of txt) publishTxt(dns, name, values)
}
