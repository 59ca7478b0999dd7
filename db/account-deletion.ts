import type { Db } from './client.ts'

/** A deleted account's aliases stop receiving at once (MX looks aliases up by address). */
export async function deleteUserAliases(db: Db, userId: string): Promise<number> {
  const rows = await db`delete from aliases where user_id = ${userId} returning id`
  return rows.length
}
