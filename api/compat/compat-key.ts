// The key check of the compatible APIs: each reads its key from its own header and answers a
// missing or wrong key in its own shape. The session cookie is never read here.
import type { Context, MiddlewareHandler } from 'hono'
import type { RateLimitHit } from '../../db/rate-limits.ts'
import { userFromApiKey } from '../api-keys/api-key-auth.ts'
import type { AuthedEnv } from '../auth/session.ts'

export function compatKey(options: {
  read: (c: Context<AuthedEnv>) => string | undefined
  unauthorized: (c: Context<AuthedEnv>) => Response
  limited: (c: Context<AuthedEnv>, hit: RateLimitHit) => Response
}): MiddlewareHandler<AuthedEnv> {
  return async (c, next) => {
    const check = await userFromApiKey(c, options.read(c))
    if (check.limited) return options.limited(c, check.limited)
    if (!check.user) return options.unauthorized(c)
    c.set('user', check.user)
    c.set('apiKeyId', check.keyId)
    await next()
  }
}

/** Seconds until `hit` allows again, at least 1 (Retry-After). */
export const retryAfterSeconds = (hit: RateLimitHit) => Math.max(1, Math.ceil((hit.resetTime.getTime() - Date.now()) / 1000))

/** A `hostname` as SimpleLogin's clients send it (a host name, or a URL): the host name, or null. */
export function cleanHostname(value: string | undefined): string | null {
  if (!value) return null
  let host = value.trim().toLowerCase()
  if (host.includes('/')) {
    try {
      host = new URL(host.includes('://') ? host : `https://${host}`).hostname
    } catch {
      return null
    }
  }
  return /^[a-z0-9.-]{1,253}$/.test(host) && /[a-z0-9]/.test(host) ? host : null
}
