// Queue `bounce-notice` (issue 30): the owner hears of forwards refused for good at most once a
// day, by mail to the account's address (through the outgoing queue, as security notices go) and
// on the dashboard until dismissed: per alias and target, the server's code and reason and whether
// the target is now marked. No message content. Accounts without an address get the dashboard's.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { claimBounceNotice } from '../../db/bounce-settings.ts'
import { insertBounceNotice, listBouncesSince, type BounceEntry } from '../../db/bounce-notices.ts'
import { queueSystemMail } from '../../db/queue-system-mail.ts'
import { findUserById } from '../../db/users.ts'
import type { Config } from '../../lib/config.ts'
import { log } from '../../lib/log.ts'

export function bounceNoticeText(entries: BounceEntry[], publicUrl: string): string {
  const lines = entries.map((e) => `- ${e.alias} → ${e.target}: ${e.reason.startsWith(String(e.code)) ? e.reason : `${e.code} ${e.reason}`}` +
    `${e.count > 1 ? ` (${e.count} times)` : ''}${e.disabled ? '\n  Forwards to this address are stopped until you send it a test mail or re-enable it.' : ''}`)
  return 'The receiving server refused mail your aliases forwarded for good:\n\n' + `${lines.join('\n')}\n\n` +
    'The messages are listed under Undelivered on your dashboard (a copy is kept there when you have an encryption key).\n\n' +
    `${publicUrl}/dashboard\n\nYou hear of bounces at most once a day.\n`
}

export async function sendBounceNotice(sql: Sql, deps: { boss: PgBoss; config: Config }, userId: string): Promise<void> {
  await sql.begin(async (tx) => {
    const claimed = await claimBounceNotice(tx, userId)
    if (!claimed) return
    const entries = await listBouncesSince(tx, userId, claimed.since)
    if (entries.length === 0) return
    await insertBounceNotice(tx, userId, entries)
    const user = await findUserById(tx, userId)
    if (user?.email) {
      await queueSystemMail(tx, deps, {
        userId, to: user.email, subject: 'Veilmail: forwarded mail was refused',
        text: bounceNoticeText(entries, deps.config.publicUrl),
      })
    }
    log.info('bounce.notice', { user: userId, entries: entries.length, mailed: Boolean(user?.email) })
  })
}
