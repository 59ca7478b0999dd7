// What an alias made by an app gets when the app does not say: the user's "Aliases created by
// apps" settings, or the first alias domain, random words, and the account's verified address.
import type { Context } from 'hono'
import { getAppAliasSettings } from '../../db/app-alias-settings.ts'
import { listForwardTargets } from '../../db/forward-targets.ts'
import type { AliasNameForm } from '../../shared/app-alias-schemas.ts'
import type { AuthedEnv } from '../auth/session.ts'
import { aliasDomainsOf } from '../domains/alias-domains.ts'

export interface AppAliasDefaults {
  domain: string
  nameForm: AliasNameForm
  /** undefined when there is nowhere to forward: no verified account address and no target chosen */
  forwardTo: string | undefined
}

export const NO_TARGET_MESSAGE = 'Choose where aliases made by apps forward to: Settings, "Aliases created by apps".'

export async function appAliasDefaults<E extends AuthedEnv>(c: Context<E>): Promise<AppAliasDefaults> {
  const { sql, config } = c.var.deps
  const user = c.var.user
  const saved = await getAppAliasSettings(sql, user.id)
  // a custom domain removed since it was chosen falls back to the first of ours
  const domain = saved?.domain && (await aliasDomainsOf(c)).all.includes(saved.domain) ? saved.domain : config.mailDomains[0]
  const accountEmail = user.email && user.emailVerifiedAt ? user.email.toLowerCase() : undefined
  return { domain, nameForm: saved?.nameForm ?? 'words', forwardTo: saved?.forwardTo ?? accountEmail }
}

/** The targets a user may choose: their confirmed forward targets and their verified address. */
export async function confirmedTargets<E extends AuthedEnv>(c: Context<E>): Promise<string[]> {
  const user = c.var.user
  const rows = await listForwardTargets(c.var.deps.sql, user.id)
  const targets = rows.filter((r) => r.confirmedAt !== null).map((r) => r.email)
  const own = user.email && user.emailVerifiedAt ? user.email.toLowerCase() : undefined
  return own && !targets.includes(own) ? [own, ...targets] : targets
}
