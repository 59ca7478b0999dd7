// An alias in SimpleLogin's shape (its docs/api.md, GET /api/aliases/:alias_id). Mailboxes are the
// user's confirmed targets, numbered from 1 in the order GET /api/mailboxes lists them.
import type { AliasRow } from '../../db/aliases.ts'
import { PAUSED } from '../../shared/alias-schemas.ts'
import { partitionTargets } from '../../shared/alias-target-rules.ts'

export interface SimpleLoginMailbox { id: number; email: string }

/** "2020-04-06 17:57:14+00:00", as SimpleLogin writes dates */
const slDate = (d: Date) => d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '+00:00')

export function aliasTargets(row: Pick<AliasRow, 'forwardTo' | 'lastForwardTo'>): string[] {
  const targets = row.forwardTo === PAUSED ? row.lastForwardTo : row.forwardTo
  return targets && targets !== PAUSED ? partitionTargets(targets).emails.map((e) => e.toLowerCase()) : []
}

export function simpleLoginAlias(row: AliasRow, mailboxes: string[]) {
  const boxes: SimpleLoginMailbox[] = aliasTargets(row).map((email) => ({ id: mailboxes.indexOf(email) + 1, email }))
  return {
    id: row.id,
    email: `${row.alias}@${row.domain}`,
    name: null,
    enabled: row.active && row.forwardTo !== PAUSED,
    creation_date: slDate(row.createdAt),
    creation_timestamp: Math.floor(row.createdAt.getTime() / 1000),
    note: row.notes,
    nb_block: Number(row.dropped),
    nb_forward: Number(row.forwarded),
    nb_reply: Number(row.replied),
    support_pgp: false,
    disable_pgp: false,
    mailbox: boxes[0] ?? null,
    mailboxes: boxes,
    latest_activity: null,
    pinned: false,
  }
}

export function simpleLoginMailboxes(mailboxes: string[], defaultTarget: string | undefined) {
  return mailboxes.map((email, i) => ({ id: i + 1, email, default: email === defaultTarget, verified: true }))
}
