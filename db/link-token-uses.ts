// link_token_uses: the signed link tokens already spent (lib/link-token.ts). A token is spent by
// the one insert that records it, so two clicks (or a click and a mail client's POST) cannot both act.
import type { Db } from './client.ts'

/** Records the token as spent; false when it was spent before. */
export async function spendLinkToken(db: Db, tokenHash: Buffer, expiresAt: Date): Promise<boolean> {
  const rows = await db`insert into link_token_uses (token_hash, expires_at) values (${tokenHash}, ${expiresAt}) on conflict do nothing returning token_hash`
  return rows.length > 0
}

export async function isLinkTokenSpent(db: Db, tokenHash: Buffer): Promise<boolean> {
  const rows = await db`select 1 from link_token_uses where token_hash = ${tokenHash}`
  return rows.length > 0
}

/** Past its expiry a token is refused as expired: its record is no longer needed. */
export async function deleteExpiredLinkTokenUses(db: Db): Promise<number> {
  const rows = await db`delete from link_token_uses where expires_at < now() returning 1`
  return rows.length
}
