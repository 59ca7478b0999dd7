// Serves the built web app: hashed assets cached for a year, everything else revalidated, and
// the SPA's index.html for the app's routes (web/app/router.tsx). Any other path gets index.html with 404
// so the app shows its 404 page and crawlers see the status.
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { MiddlewareHandler } from 'hono'

const APP_ROUTES = [
  /^\/$/, /^\/home$/, /^\/auth$/, /^\/register$/, /^\/dashboard$/, /^\/settings$/, /^\/compose$/,
  /^\/decrypt$/, /^\/inbox$/, /^\/inbox\/settings$/, /^\/inbox\/[\w-]+$/,
  /^\/about$/, /^\/privacy$/, /^\/terms$/, /^\/gdpr$/, /^\/transparency$/,
]

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json',
  '.woff2': 'font/woff2', '.txt': 'text/plain; charset=utf-8', '.webmanifest': 'application/manifest+json', '.map': 'application/json',
}

export function webStatic(root: string): MiddlewareHandler {
  const base = path.resolve(root)
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const pathname = decodeURIComponent(new URL(c.req.url).pathname)
    if (pathname.startsWith('/api/')) return next()
    const file = path.join(base, path.normalize(pathname))
    if (file.startsWith(base + path.sep) && !pathname.endsWith('/')) {
      const info = await stat(file).catch(() => undefined)
      if (info?.isFile()) {
        const immutable = pathname.startsWith('/assets/')
        c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate')
        c.header('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream')
        if (c.req.method === 'HEAD') return c.body(null)
        return c.body(new Uint8Array(await readFile(file)))
      }
    }
    const index = await readFile(path.join(base, 'index.html')).catch(() => undefined)
    if (!index) return c.json({ message: 'The web app is not built: run npm run build' }, 503)
    c.header('Cache-Control', 'no-cache')
    c.header('Content-Type', TYPES['.html'])
    return c.body(new Uint8Array(index), APP_ROUTES.some((r) => r.test(pathname)) ? 200 : 404)
  }
}
