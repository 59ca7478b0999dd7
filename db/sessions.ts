// sessions: the cookie token's SHA-256 is the lookup key; the token itself is never stored.
import type { Db } from './client.ts'

export const SESSION_DAYS = 30

export async function insertSession(db: Db, userId: string, tokenHash: Buffer): Promise<void> {
  await db`insert into sessions (user_id, token_hash, expires_at) values (${userId}, ${tokenHash}, now() + ${`${SESSION_DAYS} days`}::interval)`
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
