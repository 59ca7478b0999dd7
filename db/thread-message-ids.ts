// Message-IDs seen on an alias's threads, kept as SHA-256 hashes (migration 0023).
import { createHash } from 'node:crypto'
import type { Db } from './client.ts'

const hash = (id: string) => createHash('sha256').update(id).digest('hex')

/**
 * Records ids (`<…>` as they appear) for their aliases, those of a batch of forwards in one
 * statement; known ones are left as they are. Inserted in (alias, hash) order, as every batch
 * does, so two batches recording the same ids wait on each other instead of deadlocking.
 */
export async function recordThreadMessageIds(db: Db, entries: { aliasId: string; ids: string[] }[]): Promise<void> {
  const rows = [...new Map(entries.flatMap((e) => e.ids.map((id) => {
    const h = hash(id)
    return [`${e.aliasId} ${h}`, { aliasId: e.aliasId, h }] as const
  }))).values()].sort((a, b) => (a.aliasId < b.aliasId ? -1 : a.aliasId > b.aliasId ? 1 : a.h < b.h ? -1 : a.h > b.h ? 1 : 0))
  if (rows.length === 0) return
  await db`
    insert into thread_message_ids (alias_id, id_hash)
    select r.alias_id, decode(r.h, 'hex') from unnest(${rows.map((r) => r.aliasId)}::uuid[], ${rows.map((r) => r.h)}::text[]) with ordinality as r(alias_id, h, ord)
    order by r.ord
    on conflict (alias_id, id_hash) do nothing`
}

/** The ids among `ids` recorded for the alias. */
export async function knownThreadMessageIds(db: Db, aliasId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db<{ idHash: string }[]>`
    select encode(id_hash, 'hex') as id_hash from thread_message_ids
    where alias_id = ${aliasId} and id_hash = any(select decode(h, 'hex') from unnest(${ids.map(hash)}::text[]) h)`
  const known = new Set(rows.map((r) => r.idHash))
  return new Set(ids.filter((id) => known.has(hash(id))))
}

/** Housekeeping: ids older than a year no longer thread anything worth keeping. */
export async function deleteOldThreadMessageIds(db: Db): Promise<number> {
  const rows = await db`delete from thread_message_ids where created_at < now() - interval '1 year' returning 1`
  return rows.length
}
