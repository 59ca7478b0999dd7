// Custom domains (issue 29; listed by GET /api/domains in system-routes.ts): add (records to publish, a DKIM key made for the domain), list, check
// the DNS through the service's resolver (DNS_SERVERS), catch-all settings, remove. Cookie only.
import { randomBytes, randomUUID } from 'node:crypto'
import { Hono, type MiddlewareHandler } from 'hono'
import { deleteCustomDomain, domainOwnedByOther, findCustomDomain, insertCustomDomain, listCustomDomains, recordDomainCheck, updateCustomDomainSettings, type CustomDomainRow } from '../../db/custom-domains.ts'
import { generateDomainKey } from '../../lib/custom-domain-keys.ts'
import { createDnsResolver } from '../../lib/dns-resolver.ts'
import { checkDomainRecords } from '../../lib/domain-records.ts'
import { AddDomainSchema, MAX_CUSTOM_DOMAINS, UpdateDomainSchema } from '../../shared/domain-schemas.ts'
import type { AuthedEnv } from '../auth/session.ts'
import { confirmedTargets } from '../app-aliases/app-alias-defaults.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { domainView, isServiceDomain, recordParams } from './domain-view.ts'

const SERVICE_MESSAGE = 'This is one of our own domains: it cannot be added.'
const OWNED_MESSAGE = 'This domain is in use by another account.'
const LIMIT_MESSAGE = `You can have at most ${MAX_CUSTOM_DOMAINS} domains.`
const HAVE_MESSAGE = 'You have added this domain already.'
const RATE_MESSAGE = 'Too many domain changes and checks. Please try again later.'

const fieldError = (message: string) => ({ message, errors: { domain: [message] } })

type DomainEnv = AuthedEnv & { Variables: AuthedEnv['Variables'] & { domain: CustomDomainRow } }

/** Loads the path's domain for its owner before anything else runs: anyone else gets 404. */
const ownDomain: MiddlewareHandler<DomainEnv> = async (c, next) => {
  const row = await findCustomDomain(c.var.deps.sql, c.var.user.id, c.req.param('domainId')!)
  if (!row) return notFound(c)
  c.set('domain', row)
  await next()
}

export const domainRoutes = new Hono<AppEnv>()
  .post('/', signedIn, jsonBody(AddDomainSchema), async (c) => {
    const { sql, config } = c.var.deps
    const { domain } = c.req.valid('json')
    const userId = c.var.user.id
    if (isServiceDomain(config, domain)) return c.json(fieldError(SERVICE_MESSAGE), 400)
    if (await domainOwnedByOther(sql, userId, domain)) return c.json(fieldError(OWNED_MESSAGE), 409)
    // a key is made per domain added: counted before that work
    const hit = await countAction(c, 'domain-user', userId, { userId })
    if (!hit.allowed) return tooMany(c, hit, RATE_MESSAGE)
    const id = randomUUID()
    const key = await generateDomainKey(config.secretKey, id)
    const row = await insertCustomDomain(sql, userId, { id, domain, verificationToken: randomBytes(16).toString('hex'), dkimPrivateKeySealed: key.sealed, dkimRecord: key.dnsRecord })
    if (!row) {
      if ((await listCustomDomains(sql, userId)).some((d) => d.domain === domain)) return c.json(fieldError(HAVE_MESSAGE), 409)
      if (await domainOwnedByOther(sql, userId, domain)) return c.json(fieldError(OWNED_MESSAGE), 409)
      return c.json(fieldError(LIMIT_MESSAGE), 409)
    }
    return c.json({ domain: domainView(config, row) }, 201)
  })
  .post('/:domainId/check', signedIn, ownDomain, async (c) => {
    const { sql, config } = c.var.deps
    const row = c.var.domain
    const hit = await countAction(c, 'domain-user', c.var.user.id, { userId: c.var.user.id })
    if (!hit.allowed) return tooMany(c, hit, RATE_MESSAGE)
    // a resolver of its own: no answer cached from an earlier check hides a record published since
    const resolver = createDnsResolver({ timeoutMs: config.dnsTimeoutMs, servers: config.dnsServers, maxEntries: 16 })
    const states = await checkDomainRecords(resolver, recordParams(config, row))
    const activate = row.status === 'pending' && states.ownership?.state === 'ok'
    try {
      const checked = await recordDomainCheck(sql, row.id, states, activate)
      if (!checked) return notFound(c)
      return c.json({ domain: domainView(config, checked) })
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error
      await recordDomainCheck(sql, row.id, states, false)
      return c.json(fieldError(OWNED_MESSAGE), 409)
    }
  })
  .patch('/:domainId', signedIn, ownDomain, jsonBody(UpdateDomainSchema), async (c) => {
    const { sql, config } = c.var.deps
    const changes = c.req.valid('json')
    // the catch-all forwards only to an address the user confirmed (or their verified address)
    if (changes.defaultTarget && !(await confirmedTargets(c)).includes(changes.defaultTarget)) {
      const message = 'Choose one of your confirmed forwarding addresses'
      return c.json({ message, errors: { defaultTarget: [message] } }, 400)
    }
    const row = await updateCustomDomainSettings(sql, c.var.user.id, c.var.domain.id, changes)
    if (!row) return notFound(c)
    return c.json({ domain: domainView(config, row) })
  })
  .delete('/:domainId', signedIn, async (c) => {
    if (!(await deleteCustomDomain(c.var.deps.sql, c.var.user.id, c.req.param('domainId')))) return notFound(c)
    return c.json({ message: 'Domain removed' })
  })
