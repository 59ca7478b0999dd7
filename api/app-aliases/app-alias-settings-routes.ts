// "Aliases created by apps" (issue 28): the domain, the form of the name and the target that
// aliases made through an API key get.
import { Hono } from 'hono'
import { saveAppAliasSettings } from '../../db/app-alias-settings.ts'
import { AppAliasSettingsSchema, type AppAliasSettingsView } from '../../shared/app-alias-schemas.ts'
import type { AppEnv } from '../context.ts'
import { signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'
import { appAliasDefaults, confirmedTargets } from './app-alias-defaults.ts'
import { aliasDomainsOf } from '../domains/alias-domains.ts'

export const appAliasSettingsRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    const user = c.var.user
    const defaults = await appAliasDefaults(c)
    const accountEmail = user.email && user.emailVerifiedAt ? user.email.toLowerCase() : null
    const settings: AppAliasSettingsView = {
      domain: defaults.domain, nameForm: defaults.nameForm,
      forwardTo: defaults.forwardTo === accountEmail ? null : (defaults.forwardTo ?? null),
      domains: (await aliasDomainsOf(c)).all, targets: await confirmedTargets(c), accountEmail,
    }
    return c.json({ settings })
  })
  .put('/', signedIn, jsonBody(AppAliasSettingsSchema), async (c) => {
    const input = c.req.valid('json')
    if (!(await aliasDomainsOf(c)).all.includes(input.domain)) {
      return c.json({ message: 'This domain is not available', errors: { domain: ['This domain is not available'] } }, 400)
    }
    if (input.forwardTo !== null && !(await confirmedTargets(c)).includes(input.forwardTo)) {
      const message = 'Choose a confirmed target (the dashboard confirms new ones by mail)'
      return c.json({ message, errors: { forwardTo: [message] } }, 400)
    }
    await saveAppAliasSettings(c.var.deps.sql, c.var.user.id, input)
    return c.json({ message: 'Saved' })
  })
