// mailbox_idle_claims: which sync process holds an account's IDLE connection (migration 0032).
// A claim lasts `leaseSeconds` and is renewed while held; a lapsed one may be taken by anyone.
import type { Db } from './client.ts'

/** Claims up to `limit` of `providerIds` (in that order) not held by another process; answers those now held. */
export async function claimIdle(db: Db, holder: string, providerIds: string[], leaseSeconds: number, limit: number): Promise<string[]> {
  if (providerIds.length === 0 || limit <= 0) return []
  const rows = await db<{ providerId: string }[]>`
    insert into mailbox_idle_claims (provider_id, holder, expires_at)
    select c.id, ${holder}, now() + make_interval(secs => ${leaseSeconds})
    from unnest(${providerIds}::uuid[]) with ordinality as c(id, n)
    where not exists (select 1 from mailbox_idle_claims h where h.provider_id = c.id and h.holder <> ${holder} and h.expires_at > now())
    order by c.n limit ${limit}
    on conflict (provider_id) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where mailbox_idle_claims.holder = excluded.holder or mailbox_idle_claims.expires_at <= now()
    returning provider_id`
  return rows.map((r) => r.providerId)
}

/** Extends this process's claims; answers those it still holds (a claim may have lapsed and been taken). */
export async function renewIdleClaims(db: Db, holder: string, providerIds: string[], leaseSeconds: number): Promise<string[]> {
  if (providerIds.length === 0) return []
  const rows = await db<{ providerId: string }[]>`
    update mailbox_idle_claims set expires_at = now() + make_interval(secs => ${leaseSeconds})
    where provider_id = any(${providerIds}::uuid[]) and holder = ${holder} returning provider_id`
  return rows.map((r) => r.providerId)
}

export async function releaseIdleClaims(db: Db, holder: string, providerIds: string[]): Promise<void> {
  if (providerIds.length === 0) return
  await db`delete from mailbox_idle_claims where provider_id = any(${providerIds}::uuid[]) and holder = ${holder}`
}
