// The user's real addresses among some addresses: their connected mailboxes and their forward
// targets (compared case-insensitively), which a mail sent from an alias must not show to others.
import type { Db } from './client.ts'

export async function ownRealAddresses(db: Db, userId: string, addresses: string[]): Promise<string[]> {
  if (addresses.length === 0) return []
  const wanted = addresses.map((a) => a.toLowerCase())
  const rows = await db<{ email: string }[]>`
    select lower(email) as email from email_providers where user_id = ${userId} and lower(email) = any(${wanted}::text[])
    union
    select lower(email) from forward_targets where user_id = ${userId} and lower(email) = any(${wanted}::text[])`
  return rows.map((r) => r.email)
}
