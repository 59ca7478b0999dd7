// The custom-domain suites' world: a mail environment whose DNS is the test's own stand-in
// (DNS_SERVERS), owners whose domain is published there and checked, and the MX's answer to a RCPT.
import type { DomainView } from '../../shared/domain-schemas.ts'
import { ApiClient } from './api-client.ts'
import { startDnsStandIn, type DnsStandIn } from './dns-stand-in.ts'
import { publishRecords } from './domain-dns.ts'
import { createMailEnv, type MailEnv } from './mail-env.ts'
import { RawSmtp } from './raw-smtp.ts'

export interface DomainMailEnv { env: MailEnv; dns: DnsStandIn; close(): Promise<void> }

/** `extra` is added to the environment (rate limits, connection caps). */
export async function startDomainMailEnv(extra: Record<string, string> = {}): Promise<DomainMailEnv> {
  const dns = await startDnsStandIn()
  const env = await createMailEnv({ env: { DNS_SERVERS: dns.server, ...extra } })
  return {
    env, dns,
    async close() {
      await env.close()
      await dns.close()
    },
  }
}

/** A new signed-in user. */
export async function newOwner(env: MailEnv) {
  const api = new ApiClient(env.app())
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`
  const { user } = await api.register(email)
  return { api, email, userId: user.id as string }
}

/** A new user with `domain` added, its records published on the stand-in and checked; `domain` is the check's answer. */
export async function ownerWithDomain({ env, dns }: Pick<DomainMailEnv, 'env' | 'dns'>, domain: string) {
  const owner = await newOwner(env)
  const added = (await owner.api.json(owner.api.post('/api/domains', { domain }))).body.domain as DomainView
  publishRecords(dns, added.records)
  const checked = await owner.api.json(owner.api.post(`/api/domains/${added.id}/check`))
  return { ...owner, domain: checked.body.domain as DomainView }
}

/** The MX's answer to RCPT TO `to` after EHLO and MAIL FROM of an outside sender. */
export async function rcptReply(mxPort: number, to: string): Promise<string> {
  const { client } = await RawSmtp.connect(mxPort)
  try {
    await client.command('EHLO outside.example')
    await client.command('MAIL FROM:<sender@outside.example>')
    return await client.command(`RCPT TO:<${to}>`)
  } finally {
    client.close()
  }
}
