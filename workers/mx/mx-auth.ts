// Sender authentication at the MX: SPF (RFC 7208), DKIM (RFC 6376), DMARC (RFC 7489) and ARC
// (RFC 8617) with mailauth, through a resolver with short timeouts. The results travel with the
// message to the forward step (Authentication-Results, webhook payload); DMARC p=reject
// failures are refused outright.
import type { Readable } from 'node:stream'
import { authenticate } from 'mailauth'
import type { DnsResolver } from '../../lib/dns-resolver.ts'
import type { AuthSummary } from '../mail/spool-codec.ts'

export interface AuthInput {
  ip: string
  helo: string
  sender: string
  mta: string
  resolver: DnsResolver
  /** the whole check gives up after this long (from the end of the message): every result is then temperror */
  timeoutMs: number
}

export interface AuthOutcome extends AuthSummary {
  /** DMARC failed and the author domain asks for reject (RFC 7489 §6.3, after pct/t=y) */
  dmarcReject: boolean
}

const TIMED_OUT: AuthOutcome = {
  spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', arc: 'temperror',
  dkimPassDomains: [], dkimFailDomains: [], headers: '', dmarcReject: false,
}

/**
 * `message` whole, or as a stream that is being received: mailauth hashes the body as it comes
 * (RFC 6376 §3.7) and the lookups start at its end, which is when the time limit starts too.
 */
export async function checkAuthentication(message: Buffer | Readable, input: AuthInput): Promise<AuthOutcome> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<undefined>((resolve) => {
    const start = () => { timer = setTimeout(() => resolve(undefined), input.timeoutMs) }
    if (Buffer.isBuffer(message)) start()
    else message.once('end', start)
  })
  try {
    const result = await Promise.race([
      authenticate(message, { ip: input.ip, helo: input.helo, sender: input.sender, mta: input.mta, resolver: input.resolver, disableBimi: true }),
      deadline,
    ])
    if (!result) return { ...TIMED_OUT, headers: `Authentication-Results: ${input.mta}; dkim=temperror; spf=temperror; dmarc=temperror\r\n` }
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
  } finally {
    clearTimeout(timer)
  }
}
