// The DKIM keys of custom domains (issue 29) for the signer: read from custom_domains and opened
// with SECRET_KEY when a message From such a domain is signed. A domain that is not active has no
// key, so nothing is signed for it (the message is not sent).
import type { Sql } from '../../db/client.ts'
import { findActiveDomainByName } from '../../db/custom-domains.ts'
import type { Config } from '../../lib/config.ts'
import { openDomainKey } from '../../lib/custom-domain-keys.ts'
import type { DomainKeyLookup } from '../../lib/dkim-signer.ts'

export function customDomainKeys(sql: Sql, config: Pick<Config, 'secretKey' | 'dkim'>): DomainKeyLookup {
  return async (domain) => {
    const row = await findActiveDomainByName(sql, domain)
    if (!row) return undefined
    return { id: row.id, selector: config.dkim.selector, privateKey: () => openDomainKey(config.secretKey, row.id, row.dkimPrivateKeySealed) }
  }
}
