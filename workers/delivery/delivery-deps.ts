// What the forward handlers share: the database, the spool codec, the outbound transport, DKIM
// keys, SRS and loop tokens. Built once per delivery process (or test).
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import type { Config } from '../../lib/config.ts'
import { loadDkimKeys } from '../../lib/dkim-keys.ts'
import { createDnsResolver, type DnsResolver } from '../../lib/dns-resolver.ts'
import type { Lookup } from '../../lib/ssrf-guard.ts'
import { Srs } from '../mail/srs.ts'
import { DkimSigner } from '../../lib/dkim-signer.ts'
import { LoopTokens } from '../mail/loop-token.ts'
import { DeferredAuth } from '../mail/message-auth.ts'
import { createOutboundTransport, type OutboundTransport } from '../../lib/outbound-transport.ts'
import { SpoolCodec } from '../mail/spool-codec.ts'
import { ReverseAliasContacts } from './reverse-alias-contacts.ts'
import { customDomainKeys } from './domain-signing-keys.ts'

export interface DeliveryDeps {
  sql: Sql
  config: Config
  codec: SpoolCodec
  transport: OutboundTransport
  dkim: DkimSigner
  srs: Srs
  loopTokens: LoopTokens
  /** the reverse aliases this process used (they never change) */
  reverseAliases: ReverseAliasContacts
  /** DNS for webhook hosts (the SSRF guard resolves with it): DNS_SERVERS through the cache by default */
  lookup?: Lookup
  /** DNS for the authentication check the MX left to the delivery (SPF, DKIM, DMARC, ARC) */
  resolver: DnsResolver
  /** that check, once per message (built on `resolver`) */
  auth: DeferredAuth
  /** the queue, for the jobs a delivery starts (the owner's bounce notice); set by startDeliveryWorker */
  boss?: PgBoss
  /** an extra trusted CA (PEM) for users' own SMTP and IMAP servers when sending as a mailbox (tests) */
  mailboxCa?: string
}

export function createDeliveryDeps(sql: Sql, config: Config, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  const dns = createDnsResolver({ timeoutMs: config.dnsTimeoutMs, servers: config.dnsServers })
  const resolver = overrides.resolver ?? dns
  const dkim = overrides.dkim ?? new DkimSigner(loadDkimKeys(config))
  dkim.useDomainKeys(customDomainKeys(sql, config))
  return {
    sql,
    config,
    codec: new SpoolCodec(config.secretKey),
    transport: overrides.transport ?? createOutboundTransport(config),
    dkim,
    srs: new Srs(config.secretKey),
    loopTokens: new LoopTokens(config.secretKey),
    reverseAliases: new ReverseAliasContacts(),
    lookup: overrides.lookup ?? dns.lookup,
    resolver,
    auth: new DeferredAuth({ resolver, mxHostname: config.mxHostname, dnsTimeoutMs: config.dnsTimeoutMs }),
    ...overrides,
  }
}
