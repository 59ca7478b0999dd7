// Cross-site request forgery: a state-changing request that a browser marks as coming from
// another origin is refused, whatever its content type (forms, multipart and text/plain can be
// sent cross-site without a preflight). Requests with neither header are not from a browser.
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../context.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

export const csrfGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (SAFE.has(c.req.method)) return next()
  const origin = c.req.header('origin')
  if (origin !== undefined) {
    const allowed = new Set([new URL(c.var.deps.config.publicUrl).origin, new URL(c.req.url).origin])
    if (!allowed.has(origin)) return c.json({ message: 'Cross-site request refused' }, 403)
    return next()
  }
  const site = c.req.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin') return c.json({ message: 'Cross-site request refused' }, 403)
  return next()
}
