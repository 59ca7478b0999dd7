import type { Db } from './client.ts'

export interface AccountStats {
  aliases: number
}

/** What an account holds, for its owner. Later capabilities add their own counts here. */
export async function countAccountData(db: Db, userId: string): Promise<AccountStats> {
  const [row] = await db<AccountStats[]>`select (select count(*) from aliases where user_id = ${userId})::int as aliases`
  return row
}
