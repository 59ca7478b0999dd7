// After a first factor (password, Google, wallet) passed: either the account needs no second
// factor and a session starts, or a pending sign-in is opened and the browser gets only a cookie
// that names it (5 minutes, HttpOnly, SameSite=Strict, its token's SHA-256 in the database). No
// session exists until POST /api/auth/second-factor passes (second-factor-routes.ts).
import { randomBytes, createHash } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Db } from '../../db/client.ts'
import { deletePendingSignInByHash, findPendingSignIn, insertPendingSignIn, PENDING_SIGN_IN_SECONDS, spendPendingSignIn } from '../../db/pending-sign-ins.ts'
import { countPasskeys } from '../../db/passkeys.ts'
import { findTotp } from '../../db/user-totp.ts'
import type { Config } from '../../lib/config.ts'
import type { SecondFactorMethod, SecondFactorRequired } from '../../shared/account-protection-schemas.ts'
import type { AppEnv } from '../context.ts'
import { endSession, startSession } from './session.ts'

const pendingCookie = (config: Config) => (config.secureCookies ? '__Host-veilmail_pending' : 'veilmail_pending')
const hashToken = (token: string) => createHash('sha256').update(token).digest()

/** The second factors the account has; none means a first factor is a full sign-in. */
export async function secondFactorMethods(db: Db, userId: string): Promise<SecondFactorMethod[]> {
  const totp = await findTotp(db, userId)
  if (!totp?.confirmedAt) return []
  // A passkey of the account answers the second step too (it is two factors on its own).
  return (await countPasskeys(db, userId)) > 0 ? ['totp', 'recovery-code', 'passkey'] : ['totp', 'recovery-code']
}

/** Signs in, or (second factor on) opens a pending sign-in and answers what the browser must ask for. */
export async function completeFirstFactor<E extends AppEnv>(c: Context<E>, userId: string): Promise<SecondFactorRequired | undefined> {
  const { sql, config } = c.var.deps
  const methods = await secondFactorMethods(sql, userId)
  if (methods.length === 0) {
    await startSession(c, userId)
    return undefined
  }
  // Whoever was signed in in this browser is not any more: the session probe answers 401 until the second step.
  await endSession(c)
  await dropPendingSignIn(c)
  const token = randomBytes(32).toString('base64url')
  await insertPendingSignIn(sql, userId, hashToken(token))
  setCookie(c, pendingCookie(config), token, {
    httpOnly: true, sameSite: 'Strict', secure: config.secureCookies, path: '/', maxAge: PENDING_SIGN_IN_SECONDS,
  })
  return { secondFactor: { required: true, methods } }
}

/** The user whose first factor this browser passed, while the five minutes last. */
export async function pendingSignInUser<E extends AppEnv>(c: Context<E>): Promise<string | undefined> {
  const token = getCookie(c, pendingCookie(c.var.deps.config))
  if (!token || token.length > 100) return undefined
  return (await findPendingSignIn(c.var.deps.sql, hashToken(token)))?.userId
}

/** The second factor passed: the pending sign-in is spent (once) and the session starts. */
export async function finishPendingSignIn<E extends AppEnv>(c: Context<E>, userId: string): Promise<boolean> {
  const token = getCookie(c, pendingCookie(c.var.deps.config))
  if (!token || !(await spendPendingSignIn(c.var.deps.sql, hashToken(token)))) return false
  deleteCookie(c, pendingCookie(c.var.deps.config), { path: '/', secure: c.var.deps.config.secureCookies })
  await startSession(c, userId)
  return true
}

export async function dropPendingSignIn<E extends AppEnv>(c: Context<E>): Promise<void> {
  const token = getCookie(c, pendingCookie(c.var.deps.config))
  if (!token) return
  if (token.length <= 100) await deletePendingSignInByHash(c.var.deps.sql, hashToken(token))
  deleteCookie(c, pendingCookie(c.var.deps.config), { path: '/', secure: c.var.deps.config.secureCookies })
}
