// RCPT TO rules of the MX (RFC 5321 §4.1.1.3, §3.6.2): only our domains (no relaying), only
// existing aliases, reverse aliases written to by the alias's own recipients, and SRS bounce
// addresses we issued. A paused alias accepts and drops. postmaster@ (RFC 5321 §4.5.1, also
// without a domain) and abuse@ (RFC 2142) each mail domain go to the operator, when there is one.
// An active custom domain (issue 29) is ours too, for the aliases of its owner only: a removed
// domain, or one pending, is refused like any other, and an alias or reverse alias of another
// account under the same name (a domain that changed hands) is unknown.
import type { Sql } from '../../db/client.ts'
import { findAliasByAddress, getAliasForDelivery, isPaused, recipientTargets, type RoutedAlias } from '../../db/alias-routing.ts'
import { findActiveDomainByName } from '../../db/custom-domains.ts'
import { findFirstUseOwner, findUserByUsername, type FirstUseOwner } from '../../db/first-use-aliases.ts'
import type { RateLimitRule } from '../../lib/config.ts'
import { makeAliasOnFirstUse } from './first-use-alias.ts'
import { findReverseAlias, type ReverseAlias } from '../../db/reverse-aliases.ts'
import { domainOf, parseEnvelopeAddress, sameAddress } from '../../lib/mail-address.ts'
import { partitionTargets } from '../../shared/alias-target-rules.ts'
import { Srs } from './srs.ts'
import { isReverseAliasLocalPart } from './reverse-alias-address.ts'
import { replies, SmtpReply } from './smtp-reply.ts'
import { unsubscribeByMail, unsubscribeToken } from './unsubscribe-mailto.ts'

export type Recipient =
  | { kind: 'alias'; alias: RoutedAlias }
  | { kind: 'paused'; alias: RoutedAlias }
  /** an alias that drops spam, for a message rspamd called spam (workers/mx/mx-accept.ts): counted, never stored */
  | { kind: 'spam'; alias: RoutedAlias }
  | { kind: 'reverse'; reverse: ReverseAlias; alias: RoutedAlias }
  /** `tag`: the forward's (alias, target) the address was issued for (srs.ts), '' for an older address */
  | { kind: 'bounce'; tag: string }
  | { kind: 'operator'; role: string }
  /** an alias whose owner blocked the message's author: decided in DATA (sender-blocks.ts) */
  | { kind: 'blocked'; alias: RoutedAlias; contactId: string; refuse: boolean }
  /** an unsubscribe mailto (RFC 2369) that was acted on: the message itself is discarded */
  | { kind: 'link' }

export interface RecipientDeps {
  sql: Sql
  mailDomains: string[]
  srs: Srs
  /** where postmaster@ and abuse@ go; unset = they are refused, naming the missing setting */
  operatorEmail?: string
  /** the alias lookup (the MX gathers concurrent ones into one statement); default: one query */
  findAlias?: (address: { localPart: string; domain: string }) => Promise<RoutedAlias | undefined>
  /** aliases made on first use (issue 29): the key their webhook secret is sealed with, and the per-domain limit; unset = none are made */
  firstUse?: { secretKey: string; limit: RateLimitRule }
  /** the key link tokens are signed with (unsubscribe mailto, issue 30); unset = those addresses are unknown */
  linkSecret?: string
}

/** The personal subdomain `<username>.<first MAIL_DOMAIN>` this domain is, if it is one: its username. */
function subdomainUsername(deps: RecipientDeps, domain: string): string | undefined {
  const suffix = `.${deps.mailDomains[0]}`
  const label = domain.endsWith(suffix) ? domain.slice(0, -suffix.length) : ''
  return /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/.test(label) ? label : undefined
}

/** Role mailboxes every mail domain must have (RFC 5321 §4.5.1, RFC 2142); no user can take them (reserved-alias-names.ts). */
const OPERATOR_ROLES = new Set(['postmaster', 'abuse'])

function operatorRecipient(deps: RecipientDeps, role: string): Recipient {
  if (!deps.operatorEmail) throw new SmtpReply(550, '5.1.1 This server has no operator mailbox configured (OPERATOR_EMAIL is unset)')
  return { kind: 'operator', role }
}

/** The user's mailboxes behind an alias: the only senders who may write to its reverse aliases. */
export function ownerMailboxes(alias: Pick<RoutedAlias, 'forwardTo' | 'lastForwardTo'>): string[] {
  return partitionTargets(recipientTargets(alias)).emails
}

export async function resolveRecipient(deps: RecipientDeps, address: string, mailFrom: string): Promise<Recipient> {
  if (address.toLowerCase() === 'postmaster') return operatorRecipient(deps, `postmaster@${deps.mailDomains[0]}`)
  const parsed = parseEnvelopeAddress(address)
  if (!parsed) throw deps.mailDomains.includes(domainOf(address)) ? replies.badMailbox() : address.includes('@') ? replies.relayDenied() : replies.unknownMailbox()
  const service = deps.mailDomains.includes(parsed.domain)
  const custom = service ? undefined : await findActiveDomainByName(deps.sql, parsed.domain)
  const username = service || custom ? undefined : subdomainUsername(deps, parsed.domain)
  const subdomainOwner = username ? await findUserByUsername(deps.sql, username) : undefined
  if (!service && !custom && !subdomainOwner) throw replies.relayDenied()
  const ownerId = custom?.userId ?? subdomainOwner?.id
  const owned = (alias: Pick<RoutedAlias, 'userId'>) => !ownerId || alias.userId === ownerId

  if (service && OPERATOR_ROLES.has(parsed.localPart.toLowerCase())) return operatorRecipient(deps, `${parsed.localPart.toLowerCase()}@${parsed.domain}`)
  const token = service && deps.linkSecret ? unsubscribeToken(parsed.localPart) : undefined
  if (token) return unsubscribeByMail(deps.sql, deps.linkSecret!, token)
  if (isReverseAliasLocalPart(parsed.localPart)) {
    const reverse = await findReverseAlias(deps.sql, parsed.localPart, parsed.domain)
    const alias = reverse && (await getAliasForDelivery(deps.sql, reverse.aliasId))
    if (!reverse || !alias || !owned(alias)) throw replies.unknownMailbox()
    if (!mailFrom || !ownerMailboxes(alias).some((m) => sameAddress(m, mailFrom))) throw replies.notARecipient()
    return { kind: 'reverse', reverse, alias }
  }
  // SRS addresses are issued on our own domains only (forwards keep SRS on the service domain)
  if (service && Srs.looksLikeSrs(parsed.localPart)) {
    const issued = deps.srs.parse(parsed.localPart)
    if (!issued) throw replies.unknownMailbox()
    return { kind: 'bounce', tag: issued.tag }
  }
  let alias = deps.findAlias ? await deps.findAlias(parsed) : await findAliasByAddress(deps.sql, parsed.localPart, parsed.domain)
  if (!alias && deps.firstUse && (subdomainOwner || custom?.catchAll)) {
    const owner: FirstUseOwner | undefined = subdomainOwner ?? (await findFirstUseOwner(deps.sql, custom!.userId))
    alias = await makeAliasOnFirstUse({ sql: deps.sql, secretKey: deps.firstUse.secretKey, firstUseLimit: deps.firstUse.limit }, {
      userId: ownerId!, localPart: parsed.localPart, domain: parsed.domain,
      forwardTo: custom?.defaultTarget ?? owner?.verifiedEmail ?? null, madeBy: subdomainOwner ? 'subdomain' : 'catch-all',
    })
  }
  if (!alias || !owned(alias)) throw replies.unknownMailbox() // unknown and deleted alike
  return isPaused(alias) ? { kind: 'paused', alias } : { kind: 'alias', alias }
}
