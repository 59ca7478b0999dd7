// pending_sign_ins: a first factor passed, the second not yet. The browser's cookie token is
// looked up by its SHA-256; the row lives five minutes and is spent by the sign-in it completes.
import type { Db } from './client.ts'

export const PENDING_SIGN_IN_SECONDS = 5 * 60

export async function insertPendingSignIn(db: Db, userId: string, tokenHash: Buffer): Promise<void> {
  await db`
    insert into pending_sign_ins (user_id, token_hash, expires_at)
    values (${userId}, ${tokenHash}, now() + ${`${PENDING_SIGN_IN_SECONDS} seconds`}::interval)`
}

export async function findPendingSignIn(db: Db, tokenHash: Buffer): Promise<{ userId: string } | undefined> {
  const [row] = await db<{ userId: string }[]>`
    select p.user_id from pending_sign_ins p join users u on u.id = p.user_id
    where p.token_hash = ${tokenHash} and p.expires_at > now() and u.deleted_at is null`
  return row
}

/** Spends the pending sign-in; false when it had expired or another request spent it first. */
export async function spendPendingSignIn(db: Db, tokenHash: Buffer): Promise<boolean> {
  const rows = await db`delete from pending_sign_ins where token_hash = ${tokenHash} and expires_at > now() returning id`
  return rows.length === 1
}

export async function deletePendingSignInByHash(db: Db, tokenHash: Buffer): Promise<void> {
  await db`delete from pending_sign_ins where token_hash = ${tokenHash}`
}

export async function deleteExpiredPendingSignIns(db: Db): Promise<number> {
  const rows = await db`delete from pending_sign_ins where expires_at <= now() returning id`
  return rows.length
}
