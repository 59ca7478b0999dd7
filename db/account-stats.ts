import type { Db } from './client.ts'

export interface AccountStats {
  aliases: number
  forwarded: number
  replied: number
  keys: number
}

/** What an account holds, for its owner. Later capabilities add their own counts here. */
export async function countAccountData(db: Db, userId: string): Promise<AccountStats> {
  const [row] = await db<AccountStats[]>`
    select count(a.id)::int as aliases,
           coalesce(sum(c.forwarded), 0)::int as forwarded,
           coalesce(sum(c.replied), 0)::int as replied,
           (select count(*)::int from encryption_keys k where k.user_id = ${userId}) as keys
    from aliases a left join alias_counters c on c.alias_id = a.id
    where a.user_id = ${userId}`
  return row
}
