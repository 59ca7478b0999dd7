// Where a user's aliases can be made (issue 29): the service's MAIL_DOMAINS, then the user's
// active custom domains. The dashboard, the native API and both compatible APIs list these.
import type { Context } from 'hono'
import { listActiveDomainNames } from '../../db/custom-domains.ts'
import type { AuthedEnv } from '../auth/session.ts'

export async function aliasDomainsOf<E extends AuthedEnv>(c: Context<E>): Promise<{ all: string[]; custom: string[] }> {
  const custom = await listActiveDomainNames(c.var.deps.sql, c.var.user.id)
  return { all: [...c.var.deps.config.mailDomains, ...custom], custom }
}
