// Session cookies and the signed-in user. The cookie holds a 256-bit random token; the
// database holds only its SHA-256. `__Host-` prefix and Secure when PUBLIC_URL is https.
import { createHash, randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { deleteSessionByHash, extendSession, findLiveSession, insertSession, SESSION_DAYS } from '../../db/sessions.ts'
import { describeUserAgent } from '../../lib/user-agent.ts'
import { findUserById, type UserRow } from '../../db/users.ts'
import type { Db } from '../../db/client.ts'
import type { Config } from '../../lib/config.ts'
import type { AppEnv } from '../context.ts'
import type { SessionUser } from '../../shared/auth-schemas.ts'

export const cookieName = (config: Config) => (config.secureCookies ? '__Host-veilmail_session' : 'veilmail_session')
const hashToken = (token: string) => createHash('sha256').update(token).digest()

/**
 * Signs `userId` in: a fresh token every time (rotation at sign-in). Only after every factor the
 * account has passed: callers with a first factor go through api/auth/first-factor.ts.
 */
export async function startSession<E extends AppEnv>(c: Context<E>, userId: string, db: Db = c.var.deps.sql): Promise<void> {
  const old = getCookie(c, cookieName(c.var.deps.config))
  if (old) await deleteSessionByHash(db, hashToken(old))
  const token = randomBytes(32).toString('base64url')
  await insertSession(db, userId, hashToken(token), describeUserAgent(c.req.header('user-agent')))
  setCookie(c, cookieName(c.var.deps.config), token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.var.deps.config.secureCookies,
    path: '/',
    maxAge: SESSION_DAYS * 86400,
  })
}

export async function endSession<E extends AppEnv>(c: Context<E>): Promise<void> {
  const name = cookieName(c.var.deps.config)
  const token = getCookie(c, name)
  if (token) await deleteSessionByHash(c.var.deps.sql, hashToken(token))
  deleteCookie(c, name, { path: '/', secure: c.var.deps.config.secureCookies })
}

/** The id of the session this request's cookie holds, if it is live. */
export async function currentSessionId<E extends AppEnv>(c: Context<E>): Promise<string | undefined> {
  const token = getCookie(c, cookieName(c.var.deps.config))
  if (!token || token.length > 100) return undefined
  return (await findLiveSession(c.var.deps.sql, hashToken(token)))?.sessionId
}

const EXTEND_AFTER_MS = 60 * 60 * 1000

/** The signed-in user, or undefined. Extends the session at most once an hour. */
export async function sessionUser<E extends AppEnv>(c: Context<E>): Promise<UserRow | undefined> {
  const token = getCookie(c, cookieName(c.var.deps.config))
  if (!token || token.length > 100) return undefined
  const { sql } = c.var.deps
  const session = await findLiveSession(sql, hashToken(token))
  if (!session) return undefined
  if (Date.now() - session.lastSeenAt.getTime() > EXTEND_AFTER_MS) await extendSession(sql, session.sessionId)
  return findUserById(sql, session.userId)
}

/** An e-mail account whose address no link has proven yet: it can sign in, but use nothing. */
export const awaitingVerification = (user: Pick<UserRow, 'email' | 'emailVerifiedAt' | 'authMethod'>) =>
  user.authMethod === 'email' && user.email !== null && user.emailVerifiedAt === null

/** `apiKeyId` is set when the request was authenticated by an API key instead of the cookie. */
export type AuthedEnv = AppEnv & { Variables: AppEnv['Variables'] & { user: UserRow; apiKeyId?: string } }

export function publicUser(user: UserRow): SessionUser {
  return {
    id: user.id,
    email: user.email,
    walletAddress: user.walletAddress,
    googleId: user.googleId,
    authMethod: user.authMethod,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    balance: user.balance,
    emailVerified: user.emailVerifiedAt !== null,
    createdAt: user.createdAt.toISOString(),
  }
}
