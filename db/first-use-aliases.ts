// What making an alias on first use reads (issue 29): whose personal subdomain a name is, and the
// address the alias forwards to when nothing else was chosen (the verified account address).
import type { Db } from './client.ts'

export interface FirstUseOwner { id: string; verifiedEmail: string | null }

/** The account whose username is `username` (stored lower case). */
export async function findUserByUsername(db: Db, username: string): Promise<FirstUseOwner | undefined> {
  const [row] = await db<FirstUseOwner[]>`
    select id, case when email_verified_at is not null then lower(email) end as verified_email from users where username = ${username.toLowerCase()}`
  return row
}

export async function findFirstUseOwner(db: Db, userId: string): Promise<FirstUseOwner | undefined> {
  const [row] = await db<FirstUseOwner[]>`
    select id, case when email_verified_at is not null then lower(email) end as verified_email from users where id = ${userId}`
  return row
}

/** Sets the username unless another account has it; false then. A user's username is set once. */
export async function setUsername(db: Db, userId: string, username: string): Promise<'set' | 'taken' | 'already'> {
  try {
    const rows = await db`update users set username = ${username} where id = ${userId} and username is null returning id`
    return rows.length ? 'set' : 'already'
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return 'taken'
    throw error
  }
}

export async function getUsername(db: Db, userId: string): Promise<string | null> {
  const [row] = await db<{ username: string | null }[]>`select username from users where id = ${userId}`
  return row?.username ?? null
}
