// An alias in addy.io's shape (its API reference, "Get a specific alias"), dates as Laravel
// writes them ("2019-10-01 09:00:00", UTC).
import type { AliasRow } from '../../db/aliases.ts'
import { PAUSED } from '../../shared/alias-schemas.ts'

export const addyDate = (d: Date) => d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')

export function addyAlias(row: AliasRow) {
  return {
    id: row.id,
    user_id: row.userId,
    aliasable_id: null,
    aliasable_type: null,
    local_part: row.alias,
    extension: null,
    domain: row.domain,
    email: `${row.alias}@${row.domain}`,
    active: row.active && row.forwardTo !== PAUSED,
    description: row.notes,
    from_name: null,
    attached_recipients_only: false,
    recipients: [],
    emails_forwarded: Number(row.forwarded),
    emails_blocked: Number(row.dropped),
    emails_replied: Number(row.replied),
    emails_sent: 0,
    last_forwarded: null,
    last_blocked: null,
    last_replied: null,
    last_sent: null,
    created_at: addyDate(row.createdAt),
    updated_at: addyDate(row.updatedAt),
    deleted_at: null,
  }
}
