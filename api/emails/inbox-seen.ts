// Marks a user's inbox as open when they read their mail (GET /api/emails, its counts): the
// sync process holds IMAP IDLE for their accounts while it is (workers/sync/idle-watcher.ts).
// Cheap: at most one write per user every SEEN_EVERY_SECONDS, and none between (per process).
import type { MiddlewareHandler } from 'hono'
import { recordInboxSeen } from '../../db/inbox-presence.ts'
import type { AuthedEnv } from '../auth/session.ts'

const SEEN_EVERY_SECONDS = 30
/** users marked lately by this process → when (bounded: cleared when it grows this large) */
const marked = new Map<string, number>()
const MARKED_MAX = 10_000

export const inboxSeen: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  const userId = c.var.user.id
  const now = Date.now()
  if ((marked.get(userId) ?? 0) <= now - SEEN_EVERY_SECONDS * 1000) {
    if (marked.size >= MARKED_MAX) marked.clear()
    marked.set(userId, now)
    await recordInboxSeen(c.var.deps.sql, userId, SEEN_EVERY_SECONDS)
  }
  await next()
}
