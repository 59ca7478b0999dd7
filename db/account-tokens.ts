// account_tokens: single-use links mailed by the service. The token's SHA-256 is the lookup key;
// a token is spent by the one statement that finds it, so two clicks cannot both use it.
import type { Db } from './client.ts'

export type TokenPurpose = 'verify-email' | 'reset-password' | 'confirm-target'

export async function insertAccountToken(db: Db, t: { userId: string; purpose: TokenPurpose; email: string; tokenHash: Buffer; ttlSeconds: number }): Promise<void> {
  await db`
    insert into account_tokens (user_id, purpose, email, token_hash, expires_at)
    values (${t.userId}, ${t.purpose}, ${t.email}, ${t.tokenHash}, now() + ${`${t.ttlSeconds} seconds`}::interval)`
}

/** Spends a live token of `purpose`; undefined when it is unknown, used or expired. */
export async function consumeAccountToken(db: Db, purpose: TokenPurpose, tokenHash: Buffer): Promise<{ userId: string; email: string } | undefined> {
  const [row] = await db<{ userId: string; email: string }[]>`
    update account_tokens set used_at = now()
    where token_hash = ${tokenHash} and purpose = ${purpose} and used_at is null and expires_at > now()
    returning user_id, email`
  return row
}

/** Earlier links of the same kind stop working when a new one is used (a reset ends them all). */
export async function expireAccountTokens(db: Db, userId: string, purpose: TokenPurpose): Promise<void> {
  await db`update account_tokens set used_at = now() where user_id = ${userId} and purpose = ${purpose} and used_at is null`
}

export async function deleteExpiredAccountTokens(db: Db): Promise<number> {
  const rows = await db`delete from account_tokens where expires_at < now() - interval '1 day' returning id`
  return rows.length
}
