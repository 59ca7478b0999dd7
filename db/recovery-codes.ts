// recovery_codes: ten single-use codes per account, kept as HMACs. A code is spent by the one
// statement that finds it, so two tries with the same code cannot both pass.
import type { Db } from './client.ts'

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db`delete from recovery_codes where user_id = ${userId}`
}

export async function insertRecoveryCodes(db: Db, userId: string, codeHashes: Buffer[]): Promise<void> {
  await db`insert into recovery_codes ${db(codeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash })))}`
}

export async function spendRecoveryCode(db: Db, userId: string, codeHash: Buffer): Promise<boolean> {
  const rows = await db`
    update recovery_codes set used_at = now()
    where user_id = ${userId} and code_hash = ${codeHash} and used_at is null
    returning id`
  return rows.length === 1
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db<{ count: number }[]>`select count(*)::int as count from recovery_codes where user_id = ${userId} and used_at is null`
  return row.count
}
