// Aliases: list, create, update, delete, pause/resume, and the webhook signing secret (docs/webhooks.md).
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import type { Context, MiddlewareHandler } from 'hono'
import type { AuthedEnv } from '../auth/session.ts'
import { deleteAlias, findAlias, insertAlias, listAliases, listAliasesWithSmtp, updateAlias, type AliasChanges, type AliasRow } from '../../db/aliases.ts'
import { getWebhookSecret, rotateWebhookSecret } from '../../db/alias-webhook-secrets.ts'
import { syncCredentialUsernames } from '../../db/smtp-credentials.ts'
import type { AppEnv } from '../context.ts'
import type { Config } from '../../lib/config.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { partitionTargets, splitTargets } from '../../shared/alias-target-rules.ts'
import { webhookUrlProblem } from '../../lib/webhook-url-check.ts'
import { addForwardTargets } from '../../db/forward-targets.ts'
import { sendTargetConfirmation } from './forward-target-routes.ts'
import { generateWebhookSecret, sealWebhookSecret } from '../../lib/webhook-secret.ts'
import { CreateAliasSchema, PAUSED, ToggleAliasSchema, UpdateAliasSchema, type AliasView } from '../../shared/alias-schemas.ts'
import { isReservedAliasName, RESERVED_ALIAS_MESSAGE } from '../../shared/reserved-alias-names.ts'

export function aliasView(row: AliasRow): AliasView {
  return {
    id: row.id, userId: row.userId, alias: row.alias, domain: row.domain, forwardTo: row.forwardTo,
    lastForwardTo: row.lastForwardTo, active: row.active, encryptForwarded: row.encryptForwarded, notes: row.notes,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
    counters: { forwarded: Number(row.forwarded), replied: Number(row.replied), dropped: Number(row.dropped), failed: Number(row.failed) },
  }
}

const taken = (c: Context) => c.json({ message: 'This alias is already taken. Please choose another one.', errors: { alias: ['This alias is already taken'] } }, 409)
const reserved = (c: Context) => c.json({ message: RESERVED_ALIAS_MESSAGE, reserved: true, errors: { alias: [RESERVED_ALIAS_MESSAGE] } }, 400)

/** Targets on our own alias domains would loop mail back into the MX. */
function loopsBack(forwardTo: string, domains: string[]): boolean {
  return splitTargets(forwardTo).some((t) => !t.includes('://') && domains.includes(t.split('@').pop()!.toLowerCase()))
}
const loopMessage = (c: Context) => c.json({ message: 'An alias cannot forward to another alias address', errors: { forwardTo: ['An alias cannot forward to another alias address'] } }, 400)

/** The first problem with one of the webhook targets (scheme, credentials, a private address), if any. */
async function webhookProblem(config: Config, forwardTo: string): Promise<string | undefined> {
  for (const url of partitionTargets(forwardTo).webhooks) {
    const problem = await webhookUrlProblem(url, { allowPrivate: config.allowPrivateNetworks, timeoutMs: config.dnsTimeoutMs })
    if (problem) return problem
  }
  return undefined
}
const badWebhook = (c: Context, field: 'forwardTo' | 'lastForwardTo', message: string) => c.json({ message, errors: { [field]: [message] } }, 400)

/** Pause keeps the targets in lastForwardTo; resume brings them back. */
function pauseChanges(alias: AliasRow, active: boolean): AliasChanges {
  if (active) return { active: true, forwardTo: alias.forwardTo === PAUSED ? (alias.lastForwardTo ?? PAUSED) : alias.forwardTo }
  return alias.forwardTo === PAUSED ? { active: false } : { active: false, forwardTo: PAUSED, lastForwardTo: alias.forwardTo }
}

/**
 * New e-mail targets get a confirmation link (issue 11 item 5); mail is held for them until it is
 * followed. Mails are counted per user and per address before they are queued: past a limit the
 * target stays unconfirmed, and the dashboard offers to resend later.
 */
async function requestConfirmations<E extends AuthedEnv>(c: Context<E>, targetLists: (string | null | undefined)[]): Promise<void> {
  const emails = [...new Set(targetLists.flatMap((t) => (t && t !== PAUSED ? partitionTargets(t).emails : [])))]
  const fresh = await addForwardTargets(c.var.deps.sql, c.var.user.id, emails)
  for (const email of fresh) await sendTargetConfirmation(c, email)
}

type AliasEnv = AuthedEnv & { Variables: AuthedEnv['Variables'] & { alias: AliasRow } }

/** Loads the path's alias for its owner before anything else runs: anyone else gets 404. */
const ownAlias: MiddlewareHandler<AliasEnv> = async (c, next) => {
  const alias = await findAlias(c.var.deps.sql, c.var.user.id, c.req.param('aliasId')!)
  if (!alias) return notFound(c)
  c.set('alias', alias)
  await next()
}

export const aliasRoutes = new Hono<AppEnv>()
  .get('/:userId', signedIn, async (c) => {
    const rows = await listAliases(c.var.deps.sql, c.var.user.id)
    return c.json({ aliases: rows.map(aliasView) })
  })
  .get('/:userId/with-smtp', signedIn, async (c) => {
    return c.json({ aliases: await listAliasesWithSmtp(c.var.deps.sql, c.var.user.id) })
  })
  .post('/:userId', signedIn, jsonBody(CreateAliasSchema), async (c) => {
    const input = c.req.valid('json')
    const { sql, config } = c.var.deps
    if (!config.mailDomains.includes(input.domain)) {
      return c.json({ message: 'This domain is not available', errors: { domain: ['This domain is not available'] } }, 400)
    }
    if (isReservedAliasName(input.alias)) return reserved(c)
    if (loopsBack(input.forwardTo, config.mailDomains)) return loopMessage(c)
    const problem = await webhookProblem(config, input.forwardTo)
    if (problem) return badWebhook(c, 'forwardTo', problem)
    const hit = await countAction(c, 'alias-create', c.var.user.id, { userId: c.var.user.id })
    if (!hit.allowed) return tooMany(c, hit, 'You are creating aliases too quickly.')
    const newId = randomUUID() // the sealed webhook secret is bound to it
    const id = await insertAlias(sql, c.var.user.id, { ...input, id: newId, webhookSecretSealed: sealWebhookSecret(config.secretKey, newId, generateWebhookSecret()) })
    if (!id) return taken(c)
    await requestConfirmations(c, [input.forwardTo])
    return c.json({ alias: aliasView((await findAlias(sql, c.var.user.id, id))!) }, 201)
  })
  .put('/:aliasId', signedIn, ownAlias, jsonBody(UpdateAliasSchema), async (c) => {
    const input = c.req.valid('json')
    const { sql, config } = c.var.deps
    const userId = c.var.user.id
    const alias = c.var.alias
    if (input.alias !== undefined && input.alias.toLowerCase() !== alias.alias.toLowerCase() && isReservedAliasName(input.alias)) return reserved(c)
    for (const targets of [input.forwardTo, input.lastForwardTo]) {
      if (targets && targets !== PAUSED && loopsBack(targets, config.mailDomains)) return loopMessage(c)
    }
    for (const field of ['forwardTo', 'lastForwardTo'] as const) {
      const problem = input[field] && input[field] !== PAUSED ? await webhookProblem(config, input[field]) : undefined
      if (problem) return badWebhook(c, field, problem)
    }
    let changes: AliasChanges = { alias: input.alias, notes: input.notes, lastForwardTo: input.lastForwardTo, encryptForwarded: input.encryptForwarded }
    if (input.forwardTo !== undefined) {
      // New targets on a paused alias become the ones it resumes with.
      changes = input.forwardTo !== PAUSED && !alias.active && input.active === undefined
        ? { ...changes, lastForwardTo: input.forwardTo }
        : { ...changes, forwardTo: input.forwardTo }
    }
    if (input.active !== undefined && input.active !== alias.active) changes = { ...changes, ...pauseChanges({ ...alias, ...(changes.forwardTo ? { forwardTo: changes.forwardTo } : {}) }, input.active) }
    if (!(await updateAlias(sql, userId, alias.id, changes))) return taken(c)
    await requestConfirmations(c, [changes.forwardTo, changes.lastForwardTo])
    if (changes.alias !== undefined) await syncCredentialUsernames(sql, alias.id)
    return c.json({ alias: aliasView((await findAlias(sql, userId, alias.id))!) })
  })
  .patch('/:aliasId/toggle', signedIn, ownAlias, jsonBody(ToggleAliasSchema), async (c) => {
    const { active } = c.req.valid('json')
    const { sql } = c.var.deps
    const alias = c.var.alias
    await updateAlias(sql, c.var.user.id, alias.id, pauseChanges(alias, active))
    const updated = (await findAlias(sql, c.var.user.id, alias.id))!
    return c.json({ message: active ? 'Alias activated' : 'Alias paused', alias: aliasView(updated) })
  })
  .delete('/:aliasId', signedIn, async (c) => {
    if (!(await deleteAlias(c.var.deps.sql, c.var.user.id, c.req.param('aliasId')))) return notFound(c)
    return c.json({ message: 'Alias deleted' })
  })
  .get('/:aliasId/webhook-secret', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const secret = await getWebhookSecret(sql, config.secretKey, c.req.param('aliasId'), c.var.user.id)
    if (!secret) return notFound(c)
    return c.json({ secret })
  })
  .post('/:aliasId/webhook-secret/rotate', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const secret = await rotateWebhookSecret(sql, config.secretKey, c.req.param('aliasId'), c.var.user.id)
    if (!secret) return notFound(c)
    return c.json({ secret })
  })
