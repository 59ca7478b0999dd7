// Ownership, the easy path: every signed-in route lists `signedIn` before its handler, which
//  - answers 401 without a session and puts the user in `c.var.user`,
//  - answers 403 while an e-mail account's address is unproven (issue 11 item 3),
//  - answers 404 for any `…Id` path parameter that is not a UUID (never a database error),
//  - answers 404 when a `:userId` in the path is not the session's user.
// Resource lookups then always pass `c.var.user.id` to the db function, which filters by it,
// and a missing row answers `notFound(c)`: another user's resource looks exactly like none.
// (Per route rather than `app.use`, so unknown paths still answer 404, not 401.)
import type { Context, MiddlewareHandler, Next } from 'hono'
import { awaitingVerification, sessionUser, type AuthedEnv } from '../auth/session.ts'
import { bearerToken, userFromApiKey } from '../api-keys/api-key-auth.ts'
import type { UserRow } from '../../db/users.ts'
import { ownOrigins } from './csrf.ts'
import { tooMany } from './rate-limit.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const notFound = (c: Context) => c.json({ message: 'Not found' }, 404)

export const VERIFY_FIRST = 'Confirm your e-mail address first: open the link we mailed you.'

export const signedIn: MiddlewareHandler<AuthedEnv> = (c, next) => requireUser(c, next, true)

/** Signed in, whether or not the address is proven yet (the account page: its owner may delete it). */
export const signedInUnverified: MiddlewareHandler<AuthedEnv> = (c, next) => requireUser(c, next, false)

/**
 * The alias routes (issue 28): `Authorization: Bearer <API key>` in place of the cookie. A request
 * with a key reads no cookie; a request from another origin (a browser extension) without one
 * reads no cookie either, so a cookie never authenticates a cross-origin call. Every other route
 * uses `signedIn` and never accepts a key.
 */
export const signedInOrKey: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  const key = bearerToken(c)
  if (key === undefined) {
    const origin = c.req.header('origin')
    if (origin !== undefined && !ownOrigins(c).has(origin)) return c.json({ message: 'Authentication required' }, 401)
    return requireUser(c, next, true)
  }
  const check = await userFromApiKey(c, key)
  if (check.limited) return tooMany(c, check.limited)
  if (!check.user) return c.json({ message: 'Invalid API key' }, 401)
  c.set('apiKeyId', check.keyId)
  return requireUser(c, next, true, check.user)
}

async function requireUser(c: Context<AuthedEnv>, next: Next, verified: boolean, keyUser?: UserRow) {
  const user = keyUser ?? await sessionUser(c)
  if (!user) return c.json({ message: 'Authentication required' }, 401)
  // An e-mail account is usable only once a link mailed to its address was followed.
  if (verified && awaitingVerification(user)) return c.json({ message: VERIFY_FIRST, verificationRequired: true }, 403)
  for (const [name, value] of Object.entries(c.req.param() as Record<string, string>)) {
    if (!name.endsWith('Id')) continue
    if (!UUID.test(value)) return notFound(c)
    if (name === 'userId' && value.toLowerCase() !== user.id) return notFound(c)
  }
  c.set('user', user)
  await next()
}
