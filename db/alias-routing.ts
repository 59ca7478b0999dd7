// What the mail pipeline reads about aliases: RCPT lookup at the MX, targets and secret at delivery.
import type { StoredWebhookSecret } from '../lib/webhook-secret.ts'
import type { AliasRow } from './aliases.ts'
import type { Db } from './client.ts'

export type RoutedAlias = Pick<AliasRow, 'id' | 'userId' | 'alias' | 'domain' | 'forwardTo' | 'lastForwardTo' | 'active' | 'spamHandling'> & {
  /** the owner blocked at least one of its contacts (issue 30): the MX then checks the From of its mail */
  blocksSenders?: boolean
}

export interface DeliveryAlias extends RoutedAlias, Pick<AliasRow, 'encryptForwarded'>, StoredWebhookSecret {}

/** The alias at `localPart@domain` (local part compared case-insensitively, like the unique index). */
export async function findAliasByAddress(db: Db, localPart: string, domain: string): Promise<RoutedAlias | undefined> {
  const [row] = await db<RoutedAlias[]>`
    select a.id, a.user_id, a.alias, a.domain, a.forward_to, a.last_forward_to, a.active, a.spam_handling,
      -- one probe of reverse_aliases_blocked: the MX asks about blocked senders only for aliases that have some
      exists (select 1 from reverse_aliases r where r.alias_id = a.id and r.blocked_at is not null) as blocks_senders
    from aliases a where lower(a.alias) = lower(${localPart}) and a.domain = ${domain}`
  return row
}

/**
 * The aliases at several addresses in one statement, in the order asked (undefined where there is
 * none): the MX gathers the RCPTs of concurrent sessions into one lookup.
 */
export async function findAliasesByAddress(db: Db, addresses: { localPart: string; domain: string }[]): Promise<(RoutedAlias | undefined)[]> {
  if (addresses.length === 0) return []
  const rows = await db<(RoutedAlias & { ord: number })[]>`
    select q.ord::int as ord, a.id, a.user_id, a.alias, a.domain, a.forward_to, a.last_forward_to, a.active, a.spam_handling,
      exists (select 1 from reverse_aliases r where r.alias_id = a.id and r.blocked_at is not null) as blocks_senders
    from unnest(${addresses.map((a) => a.localPart)}::text[], ${addresses.map((a) => a.domain)}::text[]) with ordinality as q(local_part, domain, ord)
    join aliases a on lower(a.alias) = lower(q.local_part) and a.domain = q.domain`
  const found = new Map(rows.map(({ ord, ...alias }) => [ord, alias]))
  return addresses.map((_, i) => found.get(i + 1))
}

export async function getAliasForDelivery(db: Db, id: string): Promise<DeliveryAlias | undefined> {
  const [row] = await db<DeliveryAlias[]>`
    select id, user_id, alias, domain, forward_to, last_forward_to, active, spam_handling, webhook_secret, webhook_secret_sealed, encrypt_forwarded
    from aliases where id = ${id}`
  return row
}

/** A paused alias accepts mail and drops it unread (docs/mail-flow.md). */
export function isPaused(alias: Pick<RoutedAlias, 'forwardTo' | 'active'>): boolean {
  return !alias.active || alias.forwardTo.trim() === 'null'
}

/** The user's own addresses behind an alias, also while it is paused: who may reply through it. */
export function recipientTargets(alias: Pick<RoutedAlias, 'forwardTo' | 'lastForwardTo'>): string {
  return alias.forwardTo.trim() === 'null' ? (alias.lastForwardTo ?? '') : alias.forwardTo
}
