// API keys (issue 28), shared by the Settings page and the key routes.
// Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { text } from './auth-schemas.ts'

export const API_KEY_NAME_MAX = 64
export const MAX_API_KEYS = 20

export const CreateApiKeySchema = v.object({
  name: v.pipe(
    text('Name is required'),
    v.trim(),
    v.nonEmpty('Name is required'),
    v.maxLength(API_KEY_NAME_MAX, `Name must be ${API_KEY_NAME_MAX} characters or less`),
  ),
})

/** A key as listed: never the key itself. */
export interface ApiKeyView {
  id: string
  name: string
  /** the key's first characters (`vm_` and 8 more), to tell keys apart */
  prefix: string
  createdAt: string
  /** the day it was last used (a time on that day), or null */
  lastUsedAt: string | null
}

/** The answer to creating a key: the only time `key` is shown. */
export interface CreatedApiKey extends Omit<ApiKeyView, 'lastUsedAt'> {
  key: string
}
