// Creating an alias, one way for every door: the dashboard, the native API with a key, and the
// SimpleLogin- and addy.io-compatible APIs. The same checks in the same order (domain, reserved
// name, loops, webhook targets, then the creation limit counted in one statement, so concurrent
// requests cannot pass it together); each caller answers the outcome in its own shape.
import { randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import { findAlias, insertAlias, type AliasRow, type NewAlias } from '../../db/aliases.ts'
import { findActiveCustomDomain, findActiveDomainByName } from '../../db/custom-domains.ts'
import { addForwardTargets } from '../../db/forward-targets.ts'
import type { RateLimitHit } from '../../db/rate-limits.ts'
import type { Config } from '../../lib/config.ts'
import { webhookUrlProblem } from '../../lib/webhook-url-check.ts'
import { generateWebhookSecret, sealWebhookSecret } from '../../lib/webhook-secret.ts'
import { PAUSED } from '../../shared/alias-schemas.ts'
import { partitionTargets, splitTargets } from '../../shared/alias-target-rules.ts'
import { isReservedAliasName, RESERVED_ALIAS_MESSAGE } from '../../shared/reserved-alias-names.ts'
import type { AuthedEnv } from '../auth/session.ts'
import { countAction } from '../http/rate-limit.ts'
import { sendTargetConfirmation } from './forward-target-routes.ts'

export type CreateAliasOutcome =
  | { ok: true; alias: AliasRow }
  | { ok: false; reason: 'domain' | 'reserved' | 'loop' | 'webhook' | 'taken'; field: 'alias' | 'domain' | 'forwardTo'; message: string }
  | { ok: false; reason: 'rate'; hit: RateLimitHit; message: string }

export const DOMAIN_MESSAGE = 'This domain is not available'
export const LOOP_MESSAGE = 'An alias cannot forward to another alias address'
export const TAKEN_MESSAGE = 'This alias is already taken. Please choose another one.'
export const RATE_MESSAGE = 'You are creating aliases too quickly.'

/** Targets on our own alias domains would loop mail back into the MX. */
export function loopsBack(forwardTo: string, domains: string[]): boolean {
  return splitTargets(forwardTo).some((t) => !t.includes('://') && domains.includes(t.split('@').pop()!.toLowerCase()))
}

/** A target on an active custom domain would come back to our MX as well. */
export async function loopsToCustomDomain<E extends AuthedEnv>(c: Context<E>, forwardTo: string): Promise<boolean> {
  for (const target of partitionTargets(forwardTo).emails) {
    if (await findActiveDomainByName(c.var.deps.sql, target.split('@').pop()!.toLowerCase())) return true
  }
  return false
}

/** The first problem with one of the webhook targets (scheme, credentials, a private address), if any. */
export async function webhookProblem(config: Config, forwardTo: string): Promise<string | undefined> {
  for (const url of partitionTargets(forwardTo).webhooks) {
    const problem = await webhookUrlProblem(url, { allowPrivate: config.allowPrivateNetworks, timeoutMs: config.dnsTimeoutMs })
    if (problem) return problem
  }
  return undefined
}

/**
 * New e-mail targets get a confirmation link (issue 11 item 5); mail is held for them until it is
 * followed. Mails are counted per user and per address before they are queued: past a limit the
 * target stays unconfirmed, and the dashboard offers to resend later.
 */
export async function requestConfirmations<E extends AuthedEnv>(c: Context<E>, targetLists: (string | null | undefined)[]): Promise<void> {
  const emails = [...new Set(targetLists.flatMap((t) => (t && t !== PAUSED ? partitionTargets(t).emails : [])))]
  const fresh = await addForwardTargets(c.var.deps.sql, c.var.user.id, emails)
  for (const email of fresh) await sendTargetConfirmation(c, email)
}

export interface AliasRequest extends Omit<NewAlias, 'alias'> {
  /** a chosen name, or a generator of fresh names (tried again while a name is taken) */
  alias: string | (() => string)
}

const GENERATED_ATTEMPTS = 5

export async function createAlias<E extends AuthedEnv>(c: Context<E>, request: AliasRequest): Promise<CreateAliasOutcome> {
  const { sql, config } = c.var.deps
  const userId = c.var.user.id
  // one of ours, or an active custom domain of this user (issue 29)
  if (!config.mailDomains.includes(request.domain) && !(await findActiveCustomDomain(sql, userId, request.domain))) return { ok: false, reason: 'domain', field: 'domain', message: DOMAIN_MESSAGE }
  if (typeof request.alias === 'string' && isReservedAliasName(request.alias)) return { ok: false, reason: 'reserved', field: 'alias', message: RESERVED_ALIAS_MESSAGE }
  if (loopsBack(request.forwardTo, config.mailDomains) || (await loopsToCustomDomain(c, request.forwardTo))) return { ok: false, reason: 'loop', field: 'forwardTo', message: LOOP_MESSAGE }
  const problem = await webhookProblem(config, request.forwardTo)
  if (problem) return { ok: false, reason: 'webhook', field: 'forwardTo', message: problem }
  const hit = await countAction(c, 'alias-create', userId, { userId })
  if (!hit.allowed) return { ok: false, reason: 'rate', hit, message: RATE_MESSAGE }
  const attempts = typeof request.alias === 'string' ? 1 : GENERATED_ATTEMPTS
  for (let attempt = 0; attempt < attempts; attempt++) {
    const name = typeof request.alias === 'string' ? request.alias : request.alias()
    const id = randomUUID() // the sealed webhook secret is bound to it
    const inserted = await insertAlias(sql, userId, { ...request, alias: name, id, webhookSecretSealed: sealWebhookSecret(config.secretKey, id, generateWebhookSecret()) })
    if (!inserted) continue
    await requestConfirmations(c, [request.forwardTo])
    return { ok: true, alias: (await findAlias(sql, userId, inserted))! }
  }
  return { ok: false, reason: 'taken', field: 'alias', message: TAKEN_MESSAGE }
}
