import type { Db } from './client.ts'

export const NONCE_TTL_SECONDS = 600

export async function insertWalletNonce(db: Db, nonce: string, walletAddress: string, expiresAt: Date): Promise<void> {
  await db`insert into wallet_nonces (nonce, wallet_address, expires_at) values (${nonce}, ${walletAddress}, ${expiresAt})`
}

/** Marks a nonce used; true only the first time, for its own wallet, before it expires. */
export async function consumeWalletNonce(db: Db, nonce: string, walletAddress: string): Promise<boolean> {
  const rows = await db`
    update wallet_nonces set used_at = now()
    where nonce = ${nonce} and wallet_address = ${walletAddress} and used_at is null and expires_at > now()
    returning nonce`
  return rows.length === 1
}

export async function deleteExpiredWalletNonces(db: Db): Promise<number> {
  const rows = await db`delete from wallet_nonces where expires_at < now() - interval '1 day' returning nonce`
  return rows.length
}
