// CORS for the routes an API key authenticates (issue 28): browser extensions call them from
// chrome-extension:// and moz-extension:// (and Safari's) origins, with the key in a header. Only
// those origins are allowed, never with credentials, so no cookie rides along; every other
// route stays same-origin (csrf.ts).
import { cors } from 'hono/cors'

const EXTENSION_ORIGIN = /^(chrome|moz|safari-web)-extension:\/\/[A-Za-z0-9._-]+$/

export const isExtensionOrigin = (origin: string) => EXTENSION_ORIGIN.test(origin)

export const keyCors = cors({
  origin: (origin) => (isExtensionOrigin(origin) ? origin : null),
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  // the key headers (addy.io and ours: Authorization; SimpleLogin: Authentication) and what the clients add
  allowHeaders: ['Authorization', 'Authentication', 'Content-Type', 'Accept', 'X-Requested-With', 'X-Requested-From'],
  exposeHeaders: ['Retry-After', 'X-RateLimit-Reset'],
  credentials: false,
  maxAge: 600,
})
