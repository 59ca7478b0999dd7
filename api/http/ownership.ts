// Ownership, the easy path: every signed-in route lists `signedIn` before its handler, which
//  - answers 401 without a session and puts the user in `c.var.user`,
//  - answers 404 for any `…Id` path parameter that is not a UUID (never a database error),
//  - answers 404 when a `:userId` in the path is not the session's user.
// Resource lookups then always pass `c.var.user.id` to the db function, which filters by it,
// and a missing row answers `notFound(c)`: another user's resource looks exactly like none.
// (Per route rather than `app.use`, so unknown paths still answer 404, not 401.)
import type { Context, MiddlewareHandler } from 'hono'
import { sessionUser, type AuthedEnv } from '../auth/session.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const notFound = (c: Context) => c.json({ message: 'Not found' }, 404)

export const signedIn: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  const user = await sessionUser(c)
  if (!user) return c.json({ message: 'Authentication required' }, 401)
  for (const [name, value] of Object.entries(c.req.param() as Record<string, string>)) {
    if (!name.endsWith('Id')) continue
    if (!UUID.test(value)) return notFound(c)
    if (name === 'userId' && value.toLowerCase() !== user.id) return notFound(c)
  }
  c.set('user', user)
  await next()
}
