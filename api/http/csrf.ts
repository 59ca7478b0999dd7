// Cross-site request forgery: a state-changing request that a browser marks as coming from
// another origin is refused, whatever its content type (forms, multipart and text/plain can be
// sent cross-site without a preflight). Requests with neither header are not from a browser.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../context.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The origins of our own web app. */
export function ownOrigins<E extends AppEnv>(c: Context<E>): Set<string> {
  return new Set([new URL(c.var.deps.config.publicUrl).origin, new URL(c.req.url).origin])
}

/**
 * Requests authenticated by an API key, which read no cookie (issue 28): the compat APIs, and the
 * alias routes called with `Authorization: Bearer`. A browser sends that header cross-origin only
 * after a preflight, which only browser extensions pass (key-cors.ts).
 */
function keyRequest(c: Context): boolean {
  const path = c.req.path
  if (path.startsWith('/compat/')) return true
  return (path === '/api/aliases' || path.startsWith('/api/aliases/')) && /^Bearer\s/i.test(c.req.header('authorization') ?? '')
}

/**
 * The one-click unsubscribe of RFC 8058 (api/contacts/unsubscribe-routes.ts): posted by a mail
 * client or its provider, whatever origin it names, authorized by the signed token in the path
 * alone; the route reads no cookie, so another site can make it do nothing a cookie allows.
 */
const linkTokenRequest = (c: Context) => c.req.path.startsWith('/api/unsubscribe/')

export const csrfGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (SAFE.has(c.req.method) || keyRequest(c) || linkTokenRequest(c)) return next()
  const origin = c.req.header('origin')
  if (origin !== undefined) {
    if (!ownOrigins(c).has(origin)) return c.json({ message: 'Cross-site request refused' }, 403)
    return next()
  }
  const site = c.req.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin') return c.json({ message: 'Cross-site request refused' }, 403)
  return next()
}
