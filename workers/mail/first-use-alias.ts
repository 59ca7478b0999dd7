// Aliases made on first use (issue 29): mail to an unknown local part of a custom domain with its
// catch-all on, or of a personal subdomain, makes that alias at RCPT time. The alias rules apply
// (shape, reserved names); a deleted address stays refused (deleted_aliases, migration 0010).
// Against dictionary attacks, new aliases per domain per hour are limited (RATE_LIMITS
// first-use-domain): past it 450 4.7.1, so the sender tries again later and nothing is dropped.
// The insert and its count are one transaction: concurrent RCPTs to one new name make one alias
// (the others wait on the unique index, then find it), and a refused one leaves no count behind.
import { randomUUID } from 'node:crypto'
import type { RoutedAlias } from '../../db/alias-routing.ts'
import { findAliasByAddress } from '../../db/alias-routing.ts'
import { insertAlias } from '../../db/aliases.ts'
import type { Sql } from '../../db/client.ts'
import { addForwardTargets } from '../../db/forward-targets.ts'
import { hitRateLimit } from '../../db/rate-limits.ts'
import type { RateLimitRule } from '../../lib/config.ts'
import { generateWebhookSecret, sealWebhookSecret } from '../../lib/webhook-secret.ts'
import { isValidAliasName } from '../../shared/alias-schemas.ts'
import { isReservedAliasName } from '../../shared/reserved-alias-names.ts'
import { replies, SmtpReply } from './smtp-reply.ts'

export interface FirstUseDeps {
  sql: Sql
  secretKey: string
  /** new aliases made on first use per domain */
  firstUseLimit: RateLimitRule
}

export interface FirstUseRequest {
  userId: string
  localPart: string
  domain: string
  /** where it forwards; none = nowhere to forward, so it is not made */
  forwardTo: string | null
  madeBy: 'catch-all' | 'subdomain'
}

class OverLimit extends Error {}

export async function makeAliasOnFirstUse(deps: FirstUseDeps, r: FirstUseRequest): Promise<RoutedAlias> {
  if (!r.forwardTo || !isValidAliasName(r.localPart) || isReservedAliasName(r.localPart)) throw replies.unknownMailbox()
  const forwardTo = r.forwardTo
  try {
    await deps.sql.begin(async (tx) => {
      const id = randomUUID()
      const inserted = await insertAlias(tx, r.userId, {
        id, alias: r.localPart.toLowerCase(), domain: r.domain, forwardTo, madeBy: r.madeBy,
        webhookSecretSealed: sealWebhookSecret(deps.secretKey, id, generateWebhookSecret()),
      })
      if (!inserted) return // made meanwhile by another RCPT, or deleted before: read below
      const hit = await hitRateLimit(tx, 'first-use-domain', r.domain, deps.firstUseLimit.limit, deps.firstUseLimit.seconds)
      if (!hit.allowed) throw new OverLimit()
      await addForwardTargets(tx, r.userId, [forwardTo])
    })
  } catch (error) {
    if (error instanceof OverLimit) throw new SmtpReply(450, '4.7.1 Too many new addresses on this domain, please try again later')
    // the address was deleted before (deleted_aliases' trigger): refused for good
    if ((error as { code?: string }).code === '23505') throw replies.unknownMailbox()
    throw error
  }
  const alias = await findAliasByAddress(deps.sql, r.localPart, r.domain)
  if (!alias || alias.userId !== r.userId) throw replies.unknownMailbox() // deleted before: refused for good
  return alias
}
