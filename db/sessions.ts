// sessions: the cookie token's SHA-256 is the lookup key; the token itself is never stored.
import type { Db } from './client.ts'

export const SESSION_DAYS = 30

/** Where a session was started, as coarse as the sessions list shows it (never an address). */
export interface SessionDevice { browser: string; os: string }

export async function insertSession(db: Db, userId: string, tokenHash: Buffer, device: SessionDevice): Promise<string> {
  const [row] = await db<{ id: string }[]>`
    insert into sessions (user_id, token_hash, expires_at, browser, os)
    values (${userId}, ${tokenHash}, now() + ${`${SESSION_DAYS} days`}::interval, ${device.browser}, ${device.os})
    returning id`
  return row.id
}

export interface SessionListRow extends SessionDevice {
  id: string
  createdAt: Date
  lastSeenAt: Date
}

export async function listUserSessions(db: Db, userId: string): Promise<SessionListRow[]> {
  return db<SessionListRow[]>`
    select id, browser, os, created_at, last_seen_at from sessions
    where user_id = ${userId} and expires_at > now()
    order by last_seen_at desc, created_at desc`
}

/** Ends one of the user's sessions; false when it is not theirs (or not there). */
export async function deleteUserSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db`delete from sessions where id = ${sessionId} and user_id = ${userId} returning id`
  return rows.length === 1
}

/** Ends every session of the user but `keepId` (the one asking), or all when it is undefined. */
export async function deleteOtherSessions(db: Db, userId: string, keepId: string | undefined): Promise<number> {
  const rows = await db`delete from sessions where user_id = ${userId} and id is distinct from ${keepId ?? null}::uuid returning id`
  return rows.length
}

export interface SessionRow {
  sessionId: string
  userId: string
  lastSeenAt: Date
}

export async function findLiveSession(db: Db, tokenHash: Buffer): Promise<SessionRow | undefined> {
  const [row] = await db<SessionRow[]>`
    select s.id as session_id, s.user_id, s.last_seen_at
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.expires_at > now() and u.deleted_at is null`
  return row
}

/** Sliding expiry: each day of use pushes the end of the session out again. */
export async function extendSession(db: Db, sessionId: string): Promise<void> {
  await db`update sessions set last_seen_at = now(), expires_at = now() + ${`${SESSION_DAYS} days`}::interval where id = ${sessionId}`
}

export async function deleteSessionByHash(db: Db, tokenHash: Buffer): Promise<void> {
  await db`delete from sessions where token_hash = ${tokenHash}`
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db`delete from sessions where user_id = ${userId}`
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const rows = await db`delete from sessions where expires_at < now() returning id`
  return rows.length
}
