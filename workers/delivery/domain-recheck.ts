// domain-recheck (issue 29): once a day each active custom domain's records are resolved again
// through DNS_SERVERS, and the owner gets a mail when a record that was right is now missing or
// wrong. The domain stays active: a wrong SPF, DKIM or DMARC record costs deliverability, not
// service; a wrong MX means mail for it no longer reaches us, which is the user's DNS to fix.
// Only a change from ok is told, so a record left broken is not mailed about every day.
import type { PgBoss } from 'pg-boss'
import { listDomainsToRecheck, recordDomainCheck, type CustomDomainRow } from '../../db/custom-domains.ts'
import { findFirstUseOwner } from '../../db/first-use-aliases.ts'
import { queueSystemMail } from '../../db/queue-system-mail.ts'
import { createDnsResolver } from '../../lib/dns-resolver.ts'
import { checkDomainRecords, domainRecords, type DomainRecordParams, type RecordStates } from '../../lib/domain-records.ts'
import { log } from '../../lib/log.ts'
import type { RecordPurpose } from '../../shared/domain-schemas.ts'
import type { DeliveryDeps } from './delivery-deps.ts'

export const DOMAIN_RECHECK_CRON = '41 3 * * *' // daily at 03:41 UTC
const RECHECK_AFTER_MS = 20 * 3600 * 1000 // checked by the user today: not again
const BATCH = 500

const WHAT: Record<RecordPurpose, string> = {
  ownership: 'The ownership record is gone. The domain keeps working; publish it again so it stays verified.',
  mx: 'The MX record no longer points to us: mail to your aliases on this domain does not reach Veilmail until it is fixed at your DNS host.',
  spf: 'The SPF record no longer includes Veilmail: mail sent from your aliases on this domain may be taken for spam.',
  dkim: 'The DKIM record is missing or changed: mail Veilmail signs for this domain fails DKIM at receivers.',
  dmarc: 'The DMARC record is gone.',
}

export function recordParamsOf(deps: Pick<DeliveryDeps, 'config'>, row: CustomDomainRow): DomainRecordParams {
  const { config } = deps
  return {
    domain: row.domain, verificationToken: row.verificationToken, dkimRecord: row.dkimRecord,
    dkimSelector: config.dkim.selector, mxHostname: config.mxHostname, spfDomain: config.mailDomains[0],
  }
}

/** The purposes that were ok before and are not now. */
export function brokenSince(before: RecordStates, now: RecordStates): RecordPurpose[] {
  return (Object.keys(now) as RecordPurpose[]).filter((p) => before[p]?.state === 'ok' && now[p]?.state !== 'ok')
}

export async function recheckDomains(deps: DeliveryDeps, boss: PgBoss, now = new Date()): Promise<void> {
  const rows = await listDomainsToRecheck(deps.sql, new Date(now.getTime() - RECHECK_AFTER_MS), BATCH)
  let told = 0
  for (const row of rows) {
    const resolver = createDnsResolver({ timeoutMs: deps.config.dnsTimeoutMs, servers: deps.config.dnsServers, maxEntries: 16 })
    const params = recordParamsOf(deps, row)
    const states = await checkDomainRecords(resolver, params)
    const broken = brokenSince(row.recordStates, states)
    await deps.sql.begin(async (tx) => {
      await recordDomainCheck(tx, row.id, states, false)
      if (!broken.length) return
      const owner = await findFirstUseOwner(tx, row.userId)
      if (!owner?.verifiedEmail) return
      const records = domainRecords(params, states)
      const lines = broken.flatMap((p) => {
        const r = records.find((x) => x.purpose === p)!
        return [`- ${WHAT[p]}`, `  Publish: ${r.type} ${r.name} ${r.value}`, ...(r.found.length ? [`  Found: ${r.found.join(' | ')}`] : []), '']
      })
      await queueSystemMail(tx, { boss, config: deps.config }, {
        userId: row.userId, to: owner.verifiedEmail, subject: `DNS records of ${row.domain} need attention`,
        text: [`Today's check of ${row.domain} found:`, '', ...lines, `Check again in Settings → Domains once it is fixed: ${deps.config.publicUrl}/settings`].join('\n'),
      })
      told++
    })
  }
  log.info('domain_recheck.done', { domains: rows.length, told })
}
