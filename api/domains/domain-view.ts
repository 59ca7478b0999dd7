// A custom domain as the API shows it: the records to publish with each one's last seen state.
import type { CustomDomainRow } from '../../db/custom-domains.ts'
import type { Config } from '../../lib/config.ts'
import { domainRecords, type DomainRecordParams } from '../../lib/domain-records.ts'
import type { DomainView } from '../../shared/domain-schemas.ts'

export function recordParams(config: Config, row: CustomDomainRow): DomainRecordParams {
  return {
    domain: row.domain, verificationToken: row.verificationToken, dkimRecord: row.dkimRecord,
    dkimSelector: config.dkim.selector, mxHostname: config.mxHostname, spfDomain: config.mailDomains[0],
  }
}

export function domainView(config: Config, row: CustomDomainRow): DomainView {
  return {
    id: row.id, domain: row.domain, status: row.status, catchAll: row.catchAll, defaultTarget: row.defaultTarget,
    records: domainRecords(recordParams(config, row), row.recordStates),
    checkedAt: row.checkedAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString(),
  }
}

/** One of MAIL_DOMAINS, or a name under one: the service's own, never a user's. */
export function isServiceDomain(config: Config, domain: string): boolean {
  return config.mailDomains.some((d) => domain === d || domain.endsWith(`.${d}`))
}
