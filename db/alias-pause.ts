// Pausing an alias without its owner at hand (an unsubscribe link, issue 30): the same change as
// the dashboard's switch (api/aliases/alias-routes.ts pauseChanges), in one statement: the targets
// kept in last_forward_to, forward_to the literal 'null'. Resume is the dashboard's.
import type { Db } from './client.ts'

/** The alias and its owner; undefined when it is gone. */
export async function pauseAliasById(db: Db, aliasId: string): Promise<{ userId: string } | undefined> {
  const [row] = await db<{ userId: string }[]>`
    update aliases set active = false,
      last_forward_to = case when forward_to = 'null' then last_forward_to else forward_to end,
      forward_to = 'null', updated_at = now()
    where id = ${aliasId} returning user_id`
  return row
}

export async function findAliasOwner(db: Db, aliasId: string): Promise<{ userId: string; address: string } | undefined> {
  const [row] = await db<{ userId: string; address: string }[]>`select user_id, alias || '@' || domain as address from aliases where id = ${aliasId}`
  return row
}
