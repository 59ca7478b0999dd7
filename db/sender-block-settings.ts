// sender_block_settings: one row per user (none = the defaults) for issue 30's three choices.
import type { Db } from './client.ts'

export interface SenderBlockSettings {
  /** what a mail client's Unsubscribe (List-Unsubscribe) does */
  unsubscribeAction: 'pause' | 'block'
  /** how the MX answers mail from a blocked contact */
  blockedReply: 'refuse' | 'drop'
  /** forwards carry the block link */
  blockLink: boolean
}

export const DEFAULT_SENDER_BLOCK_SETTINGS: SenderBlockSettings = { unsubscribeAction: 'pause', blockedReply: 'refuse', blockLink: true }

export async function getSenderBlockSettings(db: Db, userId: string): Promise<SenderBlockSettings> {
  const [row] = await db<SenderBlockSettings[]>`select unsubscribe_action, blocked_reply, block_link from sender_block_settings where user_id = ${userId}`
  return row ?? DEFAULT_SENDER_BLOCK_SETTINGS
}

export async function saveSenderBlockSettings(db: Db, userId: string, s: SenderBlockSettings): Promise<void> {
  await db`
    insert into sender_block_settings (user_id, unsubscribe_action, blocked_reply, block_link) values (${userId}, ${s.unsubscribeAction}, ${s.blockedReply}, ${s.blockLink})
    on conflict (user_id) do update set unsubscribe_action = excluded.unsubscribe_action, blocked_reply = excluded.blocked_reply, block_link = excluded.block_link, updated_at = now()`
}
