// The live inbox (issue 26 item 1): GET /api/emails/events is a Server-Sent Events stream that
// says "mail" whenever the user's stored mail changed (new mail synced, mail removed), so an open
// inbox refetches its list and counts at once instead of waiting for a reload. One LISTEN per web
// process (db/mail-changes.ts) feeds every stream of the process; a stream also keeps the user's
// inbox marked open (inbox-seen.ts), so the sync holds IMAP IDLE for their accounts meanwhile.
// The browser falls back to polling every 10 s while its stream is down.
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { Sql } from '../../db/client.ts'
import { recordInboxSeen } from '../../db/inbox-presence.ts'
import { listenMailChanges } from '../../db/mail-changes.ts'
import { log } from '../../lib/log.ts'
import type { AuthedEnv } from '../auth/session.ts'

/** Streams one user may hold open in one process (a tab each); more answer 429. */
export const MAX_STREAMS_PER_USER = 8
/** A comment line this often keeps proxies from closing an idle stream and renews the inbox's presence. */
const HEARTBEAT_SECONDS = 25
const SEEN_SECONDS = 30

type Listener = (event: 'mail' | 'resync') => void

/** The process's streams by user, fed by its one LISTEN. */
class MailChangeHub {
  private readonly users = new Map<string, Set<Listener>>()
  private listening: Promise<unknown> | undefined

  private readonly sql: Sql

  constructor(sql: Sql) {
    this.sql = sql
  }

  streams(userId: string): number {
    return this.users.get(userId)?.size ?? 0
  }

  async subscribe(userId: string, listener: Listener): Promise<() => void> {
    this.listening ??= listenMailChanges(
      this.sql,
      (id) => this.users.get(id)?.forEach((l) => l('mail')),
      // (re)connected: whatever was committed while the LISTEN was down was missed, so every stream refetches
      () => this.users.forEach((set) => set.forEach((l) => l('resync'))),
    ).catch((error: unknown) => {
      this.listening = undefined
      throw error
    })
    let set = this.users.get(userId)
    if (!set) this.users.set(userId, (set = new Set()))
    set.add(listener)
    const unsubscribe = () => {
      set.delete(listener)
      if (set.size === 0 && this.users.get(userId) === set) this.users.delete(userId)
    }
    try {
      await this.listening
    } catch (error) {
      unsubscribe()
      throw error
    }
    return unsubscribe
  }
}

const hubs = new WeakMap<Sql, MailChangeHub>()
const hubOf = (sql: Sql) => {
  let hub = hubs.get(sql)
  if (!hub) hubs.set(sql, (hub = new MailChangeHub(sql)))
  return hub
}

export async function mailEvents(c: Context<AuthedEnv>) {
  const { sql } = c.var.deps
  const userId = c.var.user.id
  const hub = hubOf(sql)
  if (hub.streams(userId) >= MAX_STREAMS_PER_USER) return c.json({ message: 'Too many open inbox streams: close a tab and try again.' }, 429)
  // counted from here, before the first await, so streams opened at once cannot pass the limit together
  const events: ('mail' | 'resync')[] = []
  let wake: (() => void) | undefined
  let unsubscribe: () => void
  try {
    unsubscribe = await hub.subscribe(userId, (event) => {
      events.push(event)
      wake?.()
    })
  } catch (error) {
    log.warn('mail_events.listen_failed', { error: error instanceof Error ? error.name : 'error' })
    return c.json({ message: 'Live updates are unavailable right now.' }, 503)
  }
  c.header('X-Accel-Buffering', 'no')
  return streamSSE(c, async (stream) => {
    const closed = new Promise<void>((resolve) => stream.onAbort(resolve))
    try {
      await recordInboxSeen(sql, userId, SEEN_SECONDS)
      await stream.writeSSE({ event: 'ready', data: '{}' })
      while (!stream.aborted && !stream.closed) {
        const next = new Promise<'event' | 'beat'>((resolve) => {
          wake = () => resolve('event')
          setTimeout(() => resolve('beat'), HEARTBEAT_SECONDS * 1000).unref()
        })
        const woke = events.length > 0 ? 'event' : await Promise.race([next, closed.then(() => 'closed' as const)])
        if (woke === 'closed') break
        if (events.length > 0) {
          events.length = 0
          await stream.writeSSE({ event: 'mail', data: '{}' })
        } else {
          await stream.write(': beat\n\n')
          await recordInboxSeen(sql, userId, SEEN_SECONDS)
        }
      }
    } finally {
      wake = undefined
      unsubscribe()
    }
  }, async (error) => {
    log.warn('mail_events.stream_failed', { error: error.name })
  })
}
