// Per-alias counters shown on the dashboard: deliveries forwarded (one per target), replies sent
// (one per outside recipient), messages dropped (paused alias) and deliveries failed for good, and
// messages dropped as spam (the alias drops what rspamd calls spam).
import type { Db } from './client.ts'

export type AliasCounter = 'forwarded' | 'replied' | 'dropped' | 'failed' | 'spam'

export interface AliasCounters {
  forwarded: number
  replied: number
  dropped: number
  failed: number
  spam: number
}

const SHARDS = 8

/** A shard row, chosen at random, so concurrent deliveries rarely wait on each other. */
export const randomShard = () => Math.floor(Math.random() * SHARDS)

/** Bumps one of the alias's shard rows (`shard`, or one at random). */
export async function incrementAliasCounter(db: Db, aliasId: string, counter: AliasCounter, by = 1, shard = randomShard()): Promise<void> {
  const column = db(counter)
  await db`
    insert into alias_counters (alias_id, shard, ${column}) values (${aliasId}, ${shard}, ${by})
    on conflict (alias_id, shard) do update set ${column} = alias_counters.${column} + excluded.${column}, updated_at = now()`
}

/** Counters by alias id; an alias that never saw mail is absent (all zero). */
export async function getAliasCounters(db: Db, aliasIds: string[]): Promise<Map<string, AliasCounters>> {
  if (aliasIds.length === 0) return new Map()
  const rows = await db<(AliasCounters & { aliasId: string })[]>`
    select alias_id, sum(forwarded)::int as forwarded, sum(replied)::int as replied, sum(dropped)::int as dropped, sum(failed)::int as failed, sum(spam)::int as spam
    from alias_counters where alias_id = any(${aliasIds}::uuid[]) group by alias_id`
  return new Map(rows.map(({ aliasId, ...counters }) => [aliasId, counters]))
}
