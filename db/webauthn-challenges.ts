// webauthn_challenges: a challenge handed to one browser (its cookie token's SHA-256 is the key),
// single use, five minutes. Spent by the one statement that reads it.
import type { Db } from './client.ts'

/** confirm: a signed-in user proves it is them again (turning the second factor off) */
export type ChallengePurpose = 'register' | 'sign-in' | 'second-factor' | 'confirm'
export const CHALLENGE_SECONDS = 5 * 60

export async function insertWebauthnChallenge(db: Db, c: { tokenHash: Buffer; userId: string | null; purpose: ChallengePurpose; challenge: string }): Promise<void> {
  await db`
    insert into webauthn_challenges (token_hash, user_id, purpose, challenge, expires_at)
    values (${c.tokenHash}, ${c.userId}, ${c.purpose}, ${c.challenge}, now() + ${`${CHALLENGE_SECONDS} seconds`}::interval)`
}

export async function spendWebauthnChallenge(db: Db, tokenHash: Buffer): Promise<{ userId: string | null; purpose: ChallengePurpose; challenge: string } | undefined> {
  const [row] = await db<{ userId: string | null; purpose: ChallengePurpose; challenge: string }[]>`
    delete from webauthn_challenges where token_hash = ${tokenHash} and expires_at > now()
    returning user_id, purpose, challenge`
  return row
}

export async function deleteExpiredWebauthnChallenges(db: Db): Promise<number> {
  const rows = await db`delete from webauthn_challenges where expires_at <= now() returning id`
  return rows.length
}
