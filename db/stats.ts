import type { Db } from './client.ts'

/** Public figures for the landing page; deleted accounts do not count. */
export async function countUsersAndAliases(db: Db): Promise<{ totalUsers: number; totalAliases: number }> {
  const [row] = await db<{ totalUsers: number; totalAliases: number }[]>`
    select (select count(*) from users where deleted_at is null)::int as total_users,
           (select count(*) from aliases)::int as total_aliases`
  return row
}
