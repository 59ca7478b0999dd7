// API keys (issue 28): create (the key is answered once), list, revoke. Managed with the session
// cookie only: a key cannot mint or list keys.
import { Hono } from 'hono'
import { deleteApiKey, insertApiKey, listApiKeys, lockUserForApiKeys, type ApiKeyRow } from '../../db/api-keys.ts'
import { apiKeyPrefix, generateApiKey } from '../../lib/api-key.ts'
import { CreateApiKeySchema, MAX_API_KEYS, type ApiKeyView, type CreatedApiKey } from '../../shared/api-key-schemas.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

export function apiKeyView(row: ApiKeyRow): ApiKeyView {
  return { id: row.id, name: row.name, prefix: apiKeyPrefix(row.lookup), createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null }
}

const LIMIT_MESSAGE = `You can have at most ${MAX_API_KEYS} API keys. Revoke one you no longer use first.`

export const apiKeyRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    return c.json({ apiKeys: (await listApiKeys(c.var.deps.sql, c.var.user.id)).map(apiKeyView) })
  })
  .post('/', signedIn, jsonBody(CreateApiKeySchema), async (c) => {
    const { name } = c.req.valid('json')
    const userId = c.var.user.id
    const key = generateApiKey()
    const row = await c.var.deps.sql.begin(async (tx) => {
      await lockUserForApiKeys(tx, userId)
      return insertApiKey(tx, userId, { name, lookup: key.lookup, hash: key.hash })
    })
    if (!row) return c.json({ message: LIMIT_MESSAGE, errors: { name: [LIMIT_MESSAGE] } }, 409)
    const apiKey: CreatedApiKey = { id: row.id, name: row.name, key: key.key, prefix: key.prefix, createdAt: row.createdAt.toISOString() }
    return c.json({ apiKey }, 201)
  })
  .delete('/:apiKeyId', signedIn, async (c) => {
    if (!(await deleteApiKey(c.var.deps.sql, c.var.user.id, c.req.param('apiKeyId')))) return notFound(c)
    return c.json({ message: 'API key revoked' })
  })
