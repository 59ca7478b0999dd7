// user_totp: an account's TOTP secret (sealed), pending until confirmed, and the last time step
// accepted. Accepting a code is one guarded update, so the same code cannot pass twice even when
// both tries arrive at once (RFC 6238 §5.2).
import type { Db } from './client.ts'

export interface TotpRow {
  secretSealed: Buffer
  confirmedAt: Date | null
}

/** A new pending secret (a fresh start); false when a confirmed one exists. */
export async function upsertPendingTotp(db: Db, userId: string, secretSealed: Buffer): Promise<boolean> {
  const rows = await db`
    insert into user_totp (user_id, secret_sealed) values (${userId}, ${secretSealed})
    on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, created_at = now(), last_step = null
    where user_totp.confirmed_at is null
    returning user_id`
  return rows.length === 1
}

export async function findTotp(db: Db, userId: string): Promise<TotpRow | undefined> {
  const [row] = await db<TotpRow[]>`select secret_sealed, confirmed_at from user_totp where user_id = ${userId}`
  return row
}

/**
 * Records `step` as used when it is later than the last one used; with `confirm`, the pending
 * secret becomes the confirmed one in the same statement. False when the code was used already
 * (or the secret is not in the state asked for).
 */
export async function acceptTotpStep(db: Db, userId: string, step: number, confirm = false): Promise<boolean> {
  const rows = await db`
    update user_totp set last_step = ${step}, confirmed_at = coalesce(confirmed_at, now())
    where user_id = ${userId} and (last_step is null or last_step < ${step})
      and ${confirm ? db`confirmed_at is null` : db`confirmed_at is not null`}
    returning user_id`
  return rows.length === 1
}

export async function deleteTotp(db: Db, userId: string): Promise<void> {
  await db`delete from user_totp where user_id = ${userId}`
}
