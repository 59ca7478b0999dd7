import type { Db } from './client.ts'

/** A deleted account's aliases stop receiving at once (MX looks aliases up by address). */
export async function deleteUserAliases(db: Db, userId: string): Promise<number> {
  const rows = await db`delete from aliases where user_id = ${userId} returning id`
  return rows.length
}

/** A deleted account holds no domain and no subdomain name (issue 29): others may verify them. */
export async function releaseUserDomains(db: Db, userId: string): Promise<void> {
  await db`delete from custom_domains where user_id = ${userId}`
  await db`update users set username = null where id = ${userId}`
}
