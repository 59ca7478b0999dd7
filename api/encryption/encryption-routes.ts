// Everything of age encryption under /api: keys and server-side decryption.
import { Hono } from 'hono'
import type { AppEnv } from '../context.ts'
import { decryptRoutes } from './decrypt-routes.ts'
import { encryptionKeyRoutes } from './encryption-key-routes.ts'

export const encryptionRoutes = new Hono<AppEnv>()
  .route('/encryption-keys', encryptionKeyRoutes)
  .route('/', decryptRoutes)
