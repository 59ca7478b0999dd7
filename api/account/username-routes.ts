// The personal subdomain (issue 29): the user chooses a username once; mail to
// anything@<username>.<first MAIL_DOMAIN> then makes that alias on first use (the MX).
import { Hono } from 'hono'
import { getUsername, setUsername } from '../../db/first-use-aliases.ts'
import type { Config } from '../../lib/config.ts'
import { UsernameSchema, type UsernameView } from '../../shared/domain-schemas.ts'
import { isReservedAliasName, RESERVED_ALIAS_MESSAGE } from '../../shared/reserved-alias-names.ts'
import type { AppEnv } from '../context.ts'
import { signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

// names that read as the service's own hosts
const RESERVED_HOSTS = new Set(['www', 'mx', 'mail', 'smtp', 'imap', 'pop', 'api', 'app', 'admin', 'ns1', 'ns2', 'autoconfig', 'autodiscover'])

const view = (config: Config, username: string | null): UsernameView =>
  ({ username, subdomain: username ? `${username}.${config.mailDomains[0]}` : null })

const fieldError = (message: string) => ({ message, errors: { username: [message] } })

export const usernameRoutes = new Hono<AppEnv>()
  .get('/username', signedIn, async (c) => {
    return c.json(view(c.var.deps.config, await getUsername(c.var.deps.sql, c.var.user.id)))
  })
  .put('/username', signedIn, jsonBody(UsernameSchema), async (c) => {
    const { sql, config } = c.var.deps
    const { username } = c.req.valid('json')
    if (isReservedAliasName(username) || RESERVED_HOSTS.has(username) || config.mailDomains.some((d) => `${username}.${config.mailDomains[0]}` === d)) {
      return c.json(fieldError(RESERVED_ALIAS_MESSAGE.replace('alias name', 'name')), 400)
    }
    const outcome = await setUsername(sql, c.var.user.id, username)
    if (outcome === 'taken') return c.json(fieldError('This username is taken. Please choose another one.'), 409)
    if (outcome === 'already') return c.json(fieldError('Your username is chosen already: it cannot be changed.'), 409)
    return c.json(view(config, username))
  })
