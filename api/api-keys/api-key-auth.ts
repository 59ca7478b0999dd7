// Authenticating a request by an API key (issue 28; DESIGN §7): the key comes from the header its
// API uses, the session cookie is never read, and wrong keys are counted per client address.
import type { Context } from 'hono'
import { findApiKeyCandidates, touchApiKey } from '../../db/api-keys.ts'
import type { RateLimitHit } from '../../db/rate-limits.ts'
import { findUserById, type UserRow } from '../../db/users.ts'
import { parseApiKey, sameKeyHash } from '../../lib/api-key.ts'
import { awaitingVerification } from '../auth/session.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction } from '../http/rate-limit.ts'

export type KeyCheck = { user: UserRow; keyId: string; limited?: undefined } | { user?: undefined; keyId?: undefined; limited?: RateLimitHit }

/** The key's owner; otherwise the wrong key is counted, and `limited` is set once its address is past the limit. */
export async function userFromApiKey<E extends AppEnv>(c: Context<E>, presented: string | undefined): Promise<KeyCheck> {
  const { sql } = c.var.deps
  const parts = parseApiKey(presented)
  const match = parts && (await findApiKeyCandidates(sql, parts.lookup)).find((row) => sameKeyHash(row.keyHash, parts.hash))
  const user = match ? await findUserById(sql, match.userId) : undefined
  if (!match || !user || awaitingVerification(user)) {
    const hit = await countAction(c, 'api-key-ip', clientIp(c))
    return hit.allowed ? {} : { limited: hit }
  }
  await touchApiKey(sql, match.id)
  return { user, keyId: match.id }
}

/** The token of `Authorization: Bearer <token>`, if the request has one. */
export function bearerToken<E extends AppEnv>(c: Context<E>): string | undefined {
  const header = c.req.header('authorization')
  const match = header && /^Bearer\s+(.+)$/i.exec(header.trim())
  return match ? match[1] : undefined
}
