// LISTEN mail_changes (migration 0058): the user id of every statement that stored or removed
// mail, sent at its commit. postgres.js holds the LISTEN on a connection of its own and listens
// again after a reconnect (`onListen` runs each time: the caller catches up then).
import type { Sql } from './client.ts'

export const MAIL_CHANGES = 'mail_changes'

export async function listenMailChanges(sql: Sql, onUser: (userId: string) => void, onListen: () => void): Promise<() => Promise<void>> {
  const { unlisten } = await sql.listen(MAIL_CHANGES, onUser, onListen)
  return unlisten
}
