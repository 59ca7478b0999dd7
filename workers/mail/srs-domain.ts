// The domain a forward's SRS address is on (RFC 5321 §3.6.3 bounces come back to it): the alias
// domain when it is one of ours, else (a custom domain, issue 29) the first MAIL_DOMAIN, so
// bounces never depend on the user's DNS and SRS stays the service's.
import type { Config } from '../../lib/config.ts'

export function srsDomain(config: Pick<Config, 'mailDomains'>, aliasDomain: string): string {
  return config.mailDomains.includes(aliasDomain) ? aliasDomain : config.mailDomains[0]
}
