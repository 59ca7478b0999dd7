// Aliases: list, create, update, delete, pause/resume, and the webhook signing secret (docs/webhooks.md).
import { Hono } from 'hono'
import type { Context, MiddlewareHandler } from 'hono'
import type { AuthedEnv } from '../auth/session.ts'
import { deleteAlias, findAlias, listAliases, listAliasesWithSmtp, updateAlias, type AliasChanges, type AliasRow } from '../../db/aliases.ts'
import { getWebhookSecret, rotateWebhookSecret } from '../../db/alias-webhook-secrets.ts'
import { syncCredentialUsernames } from '../../db/smtp-credentials.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedInOrKey } from '../http/ownership.ts'
import { tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { createAlias, LOOP_MESSAGE, loopsBack, requestConfirmations, TAKEN_MESSAGE, webhookProblem } from './create-alias.ts'
import { CreateAliasSchema, PAUSED, ToggleAliasSchema, UpdateAliasSchema, type AliasView } from '../../shared/alias-schemas.ts'
import { isReservedAliasName, RESERVED_ALIAS_MESSAGE } from '../../shared/reserved-alias-names.ts'

export function aliasView(row: AliasRow): AliasView {
  return {
    id: row.id, userId: row.userId, alias: row.alias, domain: row.domain, forwardTo: row.forwardTo,
    lastForwardTo: row.lastForwardTo, active: row.active, encryptForwarded: row.encryptForwarded, spamHandling: row.spamHandling, notes: row.notes,
    madeBy: row.madeBy, hostname: row.hostname,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
    counters: { forwarded: Number(row.forwarded), replied: Number(row.replied), dropped: Number(row.dropped), failed: Number(row.failed), spam: Number(row.spam) },
  }
}

const taken = (c: Context) => c.json({ message: TAKEN_MESSAGE, errors: { alias: ['This alias is already taken'] } }, 409)
const reserved = (c: Context) => c.json({ message: RESERVED_ALIAS_MESSAGE, reserved: true, errors: { alias: [RESERVED_ALIAS_MESSAGE] } }, 400)
const loopMessage = (c: Context) => c.json({ message: LOOP_MESSAGE, errors: { forwardTo: [LOOP_MESSAGE] } }, 400)
const badWebhook = (c: Context, field: 'forwardTo' | 'lastForwardTo', message: string) => c.json({ message, errors: { [field]: [message] } }, 400)

/** Pause keeps the targets in lastForwardTo; resume brings them back. */
export function pauseChanges(alias: AliasRow, active: boolean): AliasChanges {
  if (active) return { active: true, forwardTo: alias.forwardTo === PAUSED ? (alias.lastForwardTo ?? PAUSED) : alias.forwardTo }
  return alias.forwardTo === PAUSED ? { active: false } : { active: false, forwardTo: PAUSED, lastForwardTo: alias.forwardTo }
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
  .get('/:userId', signedInOrKey, async (c) => {
    const rows = await listAliases(c.var.deps.sql, c.var.user.id)
    return c.json({ aliases: rows.map(aliasView) })
  })
  .get('/:userId/with-smtp', signedInOrKey, async (c) => {
    return c.json({ aliases: await listAliasesWithSmtp(c.var.deps.sql, c.var.user.id) })
  })
  .post('/:userId', signedInOrKey, jsonBody(CreateAliasSchema), async (c) => {
    const input = c.req.valid('json')
    const made = await createAlias(c, { ...input, madeBy: c.var.apiKeyId ? 'api' : null })
    if (made.ok) return c.json({ alias: aliasView(made.alias) }, 201)
    switch (made.reason) {
      case 'rate': return tooMany(c, made.hit, made.message)
      case 'taken': return taken(c)
      case 'reserved': return reserved(c)
      case 'loop': return loopMessage(c)
      case 'webhook': return badWebhook(c, 'forwardTo', made.message)
      case 'domain': return c.json({ message: made.message, errors: { domain: [made.message] } }, 400)
    }
  })
  .put('/:aliasId', signedInOrKey, ownAlias, jsonBody(UpdateAliasSchema), async (c) => {
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
    let changes: AliasChanges = { alias: input.alias, notes: input.notes, lastForwardTo: input.lastForwardTo, encryptForwarded: input.encryptForwarded, spamHandling: input.spamHandling }
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
  .patch('/:aliasId/toggle', signedInOrKey, ownAlias, jsonBody(ToggleAliasSchema), async (c) => {
    const { active } = c.req.valid('json')
    const { sql } = c.var.deps
    const alias = c.var.alias
    await updateAlias(sql, c.var.user.id, alias.id, pauseChanges(alias, active))
    const updated = (await findAlias(sql, c.var.user.id, alias.id))!
    return c.json({ message: active ? 'Alias activated' : 'Alias paused', alias: aliasView(updated) })
  })
  .delete('/:aliasId', signedInOrKey, async (c) => {
    if (!(await deleteAlias(c.var.deps.sql, c.var.user.id, c.req.param('aliasId')))) return notFound(c)
    return c.json({ message: 'Alias deleted' })
  })
  .get('/:aliasId/webhook-secret', signedInOrKey, async (c) => {
    const { sql, config } = c.var.deps
    const secret = await getWebhookSecret(sql, config.secretKey, c.req.param('aliasId'), c.var.user.id)
    if (!secret) return notFound(c)
    return c.json({ secret })
  })
  .post('/:aliasId/webhook-secret/rotate', signedInOrKey, async (c) => {
    const { sql, config } = c.var.deps
    const secret = await rotateWebhookSecret(sql, config.secretKey, c.req.param('aliasId'), c.var.user.id)
    if (!secret) return notFound(c)
    return c.json({ secret })
  })
