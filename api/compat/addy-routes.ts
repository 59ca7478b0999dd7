// The addy.io-compatible API at /compat/addy (issue 28): the subset Bitwarden's forwarder, the
// addy.io extension and apps use, in addy.io's shapes: `Authorization: Bearer <key>`, answers
// wrapped in { data }, errors { message, errors? } with Laravel's statuses (401, 404, 422, 429).
import { createHash, randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { countAliasPage, deleteAlias, findAlias, listAliasPage, updateAlias, type AliasRow } from '../../db/aliases.ts'
import { NOTES_MAX } from '../../shared/alias-schemas.ts'
import type { AliasNameForm } from '../../shared/app-alias-schemas.ts'
import { appAliasDefaults, confirmedTargets, NO_TARGET_MESSAGE } from '../app-aliases/app-alias-defaults.ts'
import { bearerToken } from '../api-keys/api-key-auth.ts'
import type { AuthedEnv } from '../auth/session.ts'
import { pauseChanges } from '../aliases/alias-routes.ts'
import { createAlias } from '../aliases/create-alias.ts'
import { randomAliasName } from '../aliases/random-alias-name.ts'
import { addyAlias, addyDate } from './addy-alias-view.ts'
import { compatKey, retryAfterSeconds } from './compat-key.ts'
import { aliasDomainsOf } from '../domains/alias-domains.ts'

type C = Context<AuthedEnv>
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const LOCAL_PART_RE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?!\.))*$/
const FORMATS = ['random_characters', 'uuid', 'random_words', 'custom'] as const
const formatOf = (form: AliasNameForm) => (form === 'words' ? 'random_words' : 'random_characters')

const notFound = (c: C) => c.json({ message: 'Not found.' }, 404)
const invalid = (c: C, field: string, message: string) => c.json({ message, errors: { [field]: [message] } }, 422)

async function body(c: C): Promise<Record<string, unknown>> {
  const value: unknown = await c.req.json().catch(() => ({}))
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
const description = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, NOTES_MAX) : null)

/** A recipient (a confirmed target) has a stable id of UUID form, derived from the user and the address. */
function recipientId(userId: string, email: string): string {
  const h = createHash('sha256').update(`${userId}\n${email}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

async function ownAlias(c: C, id: unknown): Promise<AliasRow | undefined> {
  return typeof id === 'string' && UUID.test(id) ? findAlias(c.var.deps.sql, c.var.user.id, id) : undefined
}

export const addyRoutes = new Hono<AuthedEnv>()
  .use('/api/*', compatKey({
    read: bearerToken,
    unauthorized: (c) => c.json({ message: 'Unauthenticated.' }, 401),
    limited: (c, hit) => {
      c.header('Retry-After', String(retryAfterSeconds(hit)))
      c.header('X-RateLimit-Reset', String(Math.ceil(hit.resetTime.getTime() / 1000)))
      return c.json({ message: 'Too Many Attempts.' }, 429)
    },
  }))
  .get('/api/v1/account-details', async (c) => {
    const user = c.var.user
    const defaults = await appAliasDefaults(c)
    return c.json({ data: {
      id: user.id, username: user.email ?? user.id, from_name: null,
      default_alias_domain: defaults.domain, default_alias_format: formatOf(defaults.nameForm),
      subscription: null, subscription_ends_at: null,
      created_at: addyDate(user.createdAt), updated_at: addyDate(user.createdAt),
    } })
  })
  .get('/api/v1/domain-options', async (c) => {
    const defaults = await appAliasDefaults(c)
    return c.json({ data: (await aliasDomainsOf(c)).all, defaultAliasDomain: defaults.domain, defaultAliasFormat: formatOf(defaults.nameForm) })
  })
  // the confirmed targets, as addy.io's verified recipients
  .get('/api/v1/recipients', async (c) => {
    const user = c.var.user
    const stamp = addyDate(user.createdAt)
    const data = (await confirmedTargets(c)).map((email) => ({
      id: recipientId(user.id, email), user_id: user.id, email, can_reply_send: false, should_encrypt: false, fingerprint: null,
      email_verified_at: stamp, created_at: stamp, updated_at: stamp,
    }))
    return c.json({ data })
  })
  .post('/api/v1/aliases', async (c) => {
    const input = await body(c)
    const domains = (await aliasDomainsOf(c)).all
    if (typeof input.domain !== 'string' || !input.domain.trim()) return invalid(c, 'domain', 'The domain field is required.')
    const domain = input.domain.trim().toLowerCase()
    if (!domains.includes(domain)) return invalid(c, 'domain', 'The selected domain is invalid.')
    const defaults = await appAliasDefaults(c)
    const format = input.format === undefined || input.format === null ? formatOf(defaults.nameForm) : input.format
    if (!FORMATS.includes(format as never)) return invalid(c, 'format', 'The selected format is invalid.')
    let alias: string | (() => string)
    if (format === 'custom') {
      const local = typeof input.local_part === 'string' ? input.local_part.trim() : ''
      if (!local) return invalid(c, 'local_part', 'The local part field is required when format is custom.')
      if (local.length > 64 || !LOCAL_PART_RE.test(local)) return invalid(c, 'local_part', 'The local part format is invalid.')
      alias = local
    } else {
      alias = format === 'uuid' ? () => randomUUID() : () => randomAliasName(format === 'random_words' ? 'words' : 'characters')
    }
    let forwardTo = defaults.forwardTo
    if (Array.isArray(input.recipient_ids) && input.recipient_ids.length > 0) {
      const byId = new Map((await confirmedTargets(c)).map((email) => [recipientId(c.var.user.id, email), email]))
      const chosen = input.recipient_ids.map((id) => (typeof id === 'string' ? byId.get(id) : undefined))
      if (chosen.some((e) => !e)) return invalid(c, 'recipient_ids', 'The selected recipient ids is invalid.')
      forwardTo = [...new Set(chosen)].join(',')
    }
    if (!forwardTo) return invalid(c, 'recipient_ids', NO_TARGET_MESSAGE)
    const made = await createAlias(c, { alias, domain, forwardTo, notes: description(input.description), madeBy: 'addy', hostname: null })
    if (made.ok) return c.json({ data: addyAlias(made.alias) }, 201)
    if (made.reason === 'rate') {
      c.header('Retry-After', String(retryAfterSeconds(made.hit)))
      c.header('X-RateLimit-Reset', String(Math.ceil(made.hit.resetTime.getTime() / 1000)))
      return c.json({ message: `${made.message} Try again after ${made.hit.resetTime.toISOString()}.` }, 429)
    }
    return invalid(c, made.field === 'alias' ? 'local_part' : made.field === 'forwardTo' ? 'recipient_ids' : 'domain', made.reason === 'taken' ? 'The local part has already been taken.' : made.message)
  })
  .get('/api/v1/aliases', async (c) => {
    const q = (name: string) => c.req.query(name)
    const size = Math.min(100, Math.max(1, Number(q('page[size]')) || 100))
    const page = Math.max(1, Math.floor(Number(q('page[number]')) || 1))
    // Veilmail keeps no deleted aliases
    if (q('filter[deleted]') === 'only') return c.json({ data: [], links: { first: null, last: null, prev: null, next: null }, meta: { current_page: 1, from: null, last_page: 1, per_page: size, to: null, total: 0 } })
    const activeFilter = q('filter[active]')
    const filter = {
      search: q('filter[search]')?.trim().slice(0, 200) || undefined,
      active: activeFilter === 'true' ? true : activeFilter === 'false' ? false : undefined,
    }
    const { sql } = c.var.deps
    const [rows, total] = await Promise.all([
      listAliasPage(sql, c.var.user.id, { ...filter, limit: size, offset: (page - 1) * size }),
      countAliasPage(sql, c.var.user.id, filter),
    ])
    const lastPage = Math.max(1, Math.ceil(total / size))
    const link = (n: number) => {
      const url = new URL(c.req.url)
      url.searchParams.set('page[number]', String(n))
      return url.toString()
    }
    return c.json({
      data: rows.map(addyAlias),
      links: { first: link(1), last: link(lastPage), prev: page > 1 ? link(page - 1) : null, next: page < lastPage ? link(page + 1) : null },
      meta: { current_page: page, from: rows.length ? (page - 1) * size + 1 : null, last_page: lastPage, path: new URL(c.req.url).origin + new URL(c.req.url).pathname, per_page: size, to: rows.length ? (page - 1) * size + rows.length : null, total },
    })
  })
  .get('/api/v1/aliases/:aliasId', async (c) => {
    const alias = await ownAlias(c, c.req.param('aliasId'))
    return alias ? c.json({ data: addyAlias(alias) }) : notFound(c)
  })
  .patch('/api/v1/aliases/:aliasId', async (c) => {
    const alias = await ownAlias(c, c.req.param('aliasId'))
    if (!alias) return notFound(c)
    const input = await body(c)
    if ('description' in input) await updateAlias(c.var.deps.sql, c.var.user.id, alias.id, { notes: description(input.description) })
    return c.json({ data: addyAlias((await findAlias(c.var.deps.sql, c.var.user.id, alias.id))!) })
  })
  .delete('/api/v1/aliases/:aliasId', async (c) => {
    const alias = await ownAlias(c, c.req.param('aliasId'))
    if (!alias || !(await deleteAlias(c.var.deps.sql, c.var.user.id, alias.id))) return notFound(c)
    return c.body(null, 204)
  })
  .post('/api/v1/active-aliases', async (c) => {
    const alias = await ownAlias(c, (await body(c)).id)
    if (!alias) return notFound(c)
    await updateAlias(c.var.deps.sql, c.var.user.id, alias.id, pauseChanges(alias, true))
    return c.json({ data: addyAlias((await findAlias(c.var.deps.sql, c.var.user.id, alias.id))!) })
  })
  .delete('/api/v1/active-aliases/:aliasId', async (c) => {
    const alias = await ownAlias(c, c.req.param('aliasId'))
    if (!alias) return notFound(c)
    await updateAlias(c.var.deps.sql, c.var.user.id, alias.id, pauseChanges(alias, false))
    return c.body(null, 204)
  })
  .all('/api/*', (c) => notFound(c))
