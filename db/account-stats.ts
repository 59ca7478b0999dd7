import type { Db } from './client.ts'

export interface AccountStats {
  aliases: number
  forwarded: number
  replied: number
  keys: number
  jobs: number
}

/** What an account holds, for its owner. Later capabilities add their own counts here. */
export async function countAccountData(db: Db, userId: string): Promise<AccountStats> {
  // Counters are kept in several rows per alias (shards), so they are summed on their own. Jobs
  // are the mail the user sent, not the service's own mail to them (verification, notices).
  const [row] = await db<AccountStats[]>`
    select (select count(*)::int from aliases where user_id = ${userId}) as aliases,
           coalesce(sum(c.forwarded), 0)::int as forwarded,
           coalesce(sum(c.replied), 0)::int as replied,
           (select count(*)::int from encryption_keys k where k.user_id = ${userId}) as keys,
           (select count(*)::int from email_jobs j where j.user_id = ${userId} and j.source <> 'system') as jobs
    from aliases a join alias_counters c on c.alias_id = a.id
    where a.user_id = ${userId}`
  return row
}
