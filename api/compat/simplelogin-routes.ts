// The SimpleLogin-compatible API at /compat/simplelogin (issue 28): the subset Bitwarden's
// forwarder, the SimpleLogin extensions and apps use, in the shapes of SimpleLogin's docs/api.md.
// The key comes in the `Authentication` header; errors answer { error }.
import { randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { deleteAlias, findAlias, findAliasForHostname, listAliasPage, updateAlias, type AliasRow } from '../../db/aliases.ts'
import { NOTES_MAX, PAUSED } from '../../shared/alias-schemas.ts'
import { RESERVED_ALIAS_MESSAGE } from '../../shared/reserved-alias-names.ts'
import { appAliasDefaults, confirmedTargets, NO_TARGET_MESSAGE } from '../app-aliases/app-alias-defaults.ts'
import type { AuthedEnv } from '../auth/session.ts'
import { createAlias, type CreateAliasOutcome } from '../aliases/create-alias.ts'
import { pauseChanges } from '../aliases/alias-routes.ts'
import { randomAliasName } from '../aliases/random-alias-name.ts'
import { cleanHostname, compatKey, retryAfterSeconds } from './compat-key.ts'
import { simpleLoginAlias, simpleLoginMailboxes } from './simplelogin-alias-view.ts'
import { signSuffix, verifySuffix } from './simplelogin-suffix.ts'
import { aliasDomainsOf } from '../domains/alias-domains.ts'

type C = Context<AuthedEnv>
const PAGE_SIZE = 20
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const PREFIX_RE = /^[a-z0-9](?:[a-z0-9_-]|\.(?!\.))*$/

const error = (c: C, message: string, status: 400 | 401 | 404 | 409 | 412 | 429) => c.json({ error: message }, status)

async function body(c: C): Promise<Record<string, unknown>> {
  const value: unknown = await c.req.json().catch(() => ({}))
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
const note = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, NOTES_MAX) : null)

/** The answer to a creation: 201 with the alias, and `alias` (the address) at the top, which Bitwarden reads. */
async function created(c: C, made: CreateAliasOutcome) {
  if (made.ok) {
    const view = simpleLoginAlias(made.alias, await confirmedTargets(c))
    return c.json({ alias: view.email, ...view }, 201)
  }
  switch (made.reason) {
    case 'rate':
      c.header('Retry-After', String(retryAfterSeconds(made.hit)))
      return error(c, `${made.message} Try again after ${made.hit.resetTime.toISOString()}.`, 429)
    case 'taken': return error(c, 'This alias is already taken. Please choose another one.', 409)
    case 'reserved': return error(c, RESERVED_ALIAS_MESSAGE, 400)
    default: return error(c, made.message, 400)
  }
}

/** The path's alias, for its owner only. */
async function ownAlias(c: C): Promise<AliasRow | undefined> {
  const id = c.req.param('aliasId') ?? ''
  return UUID.test(id) ? findAlias(c.var.deps.sql, c.var.user.id, id) : undefined
}

/** The website's name as a prefix: `www.shop.example` → `shop`. */
function prefixSuggestion(hostname: string | null): string {
  if (!hostname) return ''
  const labels = hostname.replace(/^www\./, '').split('.').filter(Boolean)
  const name = labels.length > 1 ? labels[labels.length - 2] : (labels[0] ?? '')
  return name.replace(/[^a-z0-9_-]/g, '').slice(0, 40)
}

async function aliasOptions(c: C) {
  const hostname = cleanHostname(c.req.query('hostname'))
  const { sql, config } = c.var.deps
  const recommended = hostname ? await findAliasForHostname(sql, c.var.user.id, hostname) : undefined
  const domains = await aliasDomainsOf(c)
  const suffixes = domains.all.map((domain) => {
    const suffix = `@${domain}`
    return { suffix, signed_suffix: signSuffix(config.secretKey, c.var.user.id, suffix), is_custom: domains.custom.includes(domain), is_premium: false }
  })
  return {
    can_create: true,
    prefix_suggestion: prefixSuggestion(hostname),
    suffixes,
    ...(recommended ? { recommendation: { alias: `${recommended.alias}@${recommended.domain}`, hostname: recommended.hostname } } : {}),
  }
}

async function customNew(c: C) {
  const input = await body(c)
  const prefix = typeof input.alias_prefix === 'string' ? input.alias_prefix.trim().toLowerCase() : ''
  if (!prefix || prefix.length > 40 || !PREFIX_RE.test(prefix)) return error(c, 'alias prefix invalid: only lowercase letters, digits, dots, dashes and underscores', 400)
  const suffix = typeof input.signed_suffix === 'string' ? verifySuffix(c.var.deps.config.secretKey, c.var.user.id, input.signed_suffix) : undefined
  if (suffix === 'expired') return error(c, 'Alias creation time is expired, please retry', 412)
  if (!suffix || !suffix.startsWith('@')) return error(c, 'Tampered suffix', 400)
  const defaults = await appAliasDefaults(c)
  let forwardTo = defaults.forwardTo
  const ids = Array.isArray(input.mailbox_ids) ? input.mailbox_ids : input.mailbox_id !== undefined ? [input.mailbox_id] : []
  if (ids.length > 0) {
    const mailboxes = await confirmedTargets(c)
    const chosen = ids.map((id) => (typeof id === 'number' ? mailboxes[id - 1] : undefined))
    if (chosen.some((e) => !e)) return error(c, 'Invalid mailbox', 400)
    forwardTo = [...new Set(chosen)].join(',')
  }
  if (!forwardTo) return error(c, NO_TARGET_MESSAGE, 400)
  return created(c, await createAlias(c, {
    alias: prefix, domain: suffix.slice(1), forwardTo, notes: note(input.note),
    madeBy: 'simplelogin', hostname: cleanHostname(c.req.query('hostname')),
  }))
}

async function listAliases(c: C) {
  const raw = c.req.query('page_id') ?? ''
  if (!/^\d{1,6}$/.test(raw)) return error(c, 'page_id must be provided in request query', 400)
  const pageId = Number(raw)
  const query = c.req.method === 'POST' ? (await body(c)).query : undefined
  const active = c.req.query('enabled') !== undefined ? true : c.req.query('disabled') !== undefined ? false : undefined
  // Veilmail has no pinned aliases
  if (c.req.query('pinned') !== undefined) return c.json({ aliases: [] })
  const rows = await listAliasPage(c.var.deps.sql, c.var.user.id, {
    search: typeof query === 'string' ? query.slice(0, 200) : undefined, active, limit: PAGE_SIZE, offset: pageId * PAGE_SIZE,
  })
  const mailboxes = await confirmedTargets(c)
  return c.json({ aliases: rows.map((row) => simpleLoginAlias(row, mailboxes)) })
}

async function updateOne(c: C) {
  const alias = await ownAlias(c)
  if (!alias) return error(c, 'Alias not found', 404)
  const input = await body(c)
  const changes: Parameters<typeof updateAlias>[3] = {}
  if ('note' in input) changes.notes = note(input.note)
  const ids = Array.isArray(input.mailbox_ids) ? input.mailbox_ids : input.mailbox_id !== undefined ? [input.mailbox_id] : undefined
  if (ids) {
    const mailboxes = await confirmedTargets(c)
    const chosen = ids.map((id) => (typeof id === 'number' ? mailboxes[id - 1] : undefined))
    if (chosen.length === 0 || chosen.some((e) => !e)) return error(c, 'Invalid mailbox', 400)
    const targets = [...new Set(chosen)].join(',')
    if (alias.active) changes.forwardTo = targets
    else changes.lastForwardTo = targets
  }
  if (Object.keys(changes).length) await updateAlias(c.var.deps.sql, c.var.user.id, alias.id, changes)
  return c.json({ ok: true })
}

export const simpleLoginRoutes = new Hono<AuthedEnv>()
  .use('/api/*', compatKey({
    read: (c) => c.req.header('authentication'),
    unauthorized: (c) => error(c, 'Wrong api key', 401),
    limited: (c, hit) => {
      c.header('Retry-After', String(retryAfterSeconds(hit)))
      return error(c, 'Too many wrong API keys from your address. Try again later.', 429)
    },
  }))
  .get('/api/user_info', (c) => {
    const user = c.var.user
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ')
    return c.json({ name, email: user.email ?? '', is_premium: true, in_trial: false, profile_picture_url: user.profileImageUrl ?? null, can_create_reverse_alias: false })
  })
  .get('/api/v5/alias/options', async (c) => c.json(await aliasOptions(c)))
  // v4 (the SimpleLogin browser extension) lists each suffix as [suffix, signed_suffix]
  .get('/api/v4/alias/options', async (c) => {
    const options = await aliasOptions(c)
    return c.json({ ...options, suffixes: options.suffixes.map((s) => [s.suffix, s.signed_suffix]) })
  })
  .get('/api/mailboxes', async (c) => {
    const defaults = await appAliasDefaults(c)
    return c.json({ mailboxes: simpleLoginMailboxes(await confirmedTargets(c), defaults.forwardTo) })
  })
  .get('/api/v2/mailboxes', async (c) => {
    const defaults = await appAliasDefaults(c)
    return c.json({ mailboxes: simpleLoginMailboxes(await confirmedTargets(c), defaults.forwardTo) })
  })
  .post('/api/alias/random/new', async (c) => {
    const mode = c.req.query('mode')
    if (mode !== undefined && mode !== 'uuid' && mode !== 'word') return error(c, `${mode} must be either word or uuid`, 400)
    const defaults = await appAliasDefaults(c)
    if (!defaults.forwardTo) return error(c, NO_TARGET_MESSAGE, 400)
    const input = await body(c)
    const name = mode === 'uuid' ? () => randomUUID() : mode === 'word' ? () => randomAliasName('words') : () => randomAliasName(defaults.nameForm)
    return created(c, await createAlias(c, {
      alias: name, domain: defaults.domain, forwardTo: defaults.forwardTo, notes: note(input.note),
      madeBy: 'simplelogin', hostname: cleanHostname(c.req.query('hostname')),
    }))
  })
  .post('/api/v3/alias/custom/new', customNew)
  .post('/api/v2/alias/custom/new', customNew)
  .get('/api/v2/aliases', listAliases)
  .post('/api/v2/aliases', listAliases)
  .get('/api/aliases/:aliasId', async (c) => {
    const alias = await ownAlias(c)
    if (!alias) return error(c, 'Alias not found', 404)
    return c.json(simpleLoginAlias(alias, await confirmedTargets(c)))
  })
  .patch('/api/aliases/:aliasId', updateOne)
  .put('/api/aliases/:aliasId', updateOne)
  .delete('/api/aliases/:aliasId', async (c) => {
    const alias = await ownAlias(c)
    if (!alias || !(await deleteAlias(c.var.deps.sql, c.var.user.id, alias.id))) return error(c, 'Alias not found', 404)
    return c.json({ deleted: true })
  })
  .post('/api/aliases/:aliasId/toggle', async (c) => {
    const alias = await ownAlias(c)
    if (!alias) return error(c, 'Alias not found', 404)
    const enable = !(alias.active && alias.forwardTo !== PAUSED)
    await updateAlias(c.var.deps.sql, c.var.user.id, alias.id, pauseChanges(alias, enable))
    return c.json({ enabled: enable })
  })
  .get('/api/v2/setting/domains', async (c) => {
    const domains = await aliasDomainsOf(c)
    return c.json(domains.all.map((domain) => ({ domain, is_custom: domains.custom.includes(domain) })))
  })
  .all('/api/*', (c) => error(c, 'Not found', 404))
