// The HTTP application: every /api route, JSON errors everywhere, security headers, and the
// built web app. `createApp` takes its dependencies so tests run the same app on a test database.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { compress } from 'hono/compress'
import { HTTPException } from 'hono/http-exception'
import { errorFields, log } from '../lib/log.ts'
import type { AppDeps, AppEnv } from './context.ts'
import { securityHeaders } from './http/security-headers.ts'
import { webStatic } from './http/web-static.ts'
import { systemRoutes } from './system/system-routes.ts'
import { accountRoutes } from './account/account-routes.ts'
import { aliasRoutes } from './aliases/alias-routes.ts'
import { forwardTargetRoutes } from './aliases/forward-target-routes.ts'
import { bounceRoutes } from './bounces/bounce-routes.ts'
import { smtpRoutes } from './smtp/smtp-routes.ts'
import { emailJobRoutes } from './email-jobs/email-job-routes.ts'
import { draftRoutes } from './drafts/draft-routes.ts'
import { encryptionRoutes } from './encryption/encryption-routes.ts'
import { undeliveredRoutes } from './undelivered/undelivered-routes.ts'
import { emailProviderRoutes } from './email-providers/email-provider-routes.ts'
import { emailRoutes } from './emails/email-routes.ts'
import { authRoutes } from './auth/auth-routes.ts'
import { accountMailRoutes } from './auth/account-mail-routes.ts'
import { googleRoutes } from './auth/google-routes.ts'
import { microsoftRoutes } from './auth/microsoft-routes.ts'
import { walletRoutes } from './auth/wallet-routes.ts'
import { secondFactorRoutes } from './auth/second-factor-routes.ts'
import { totpRoutes } from './account/totp-routes.ts'
import { sessionRoutes } from './account/session-routes.ts'
import { passkeyRoutes } from './account/passkey-routes.ts'
import { passwordRoutes } from './account/password-routes.ts'
import { passkeySignInRoutes } from './auth/passkey-sign-in-routes.ts'
import { csrfGuard } from './http/csrf.ts'
import { openApiDocument } from './openapi/openapi-document.ts'
import { cookieName } from './auth/session.ts'
import { apiKeyRoutes } from './api-keys/api-key-routes.ts'
import { appAliasSettingsRoutes } from './app-aliases/app-alias-settings-routes.ts'
import { simpleLoginRoutes } from './compat/simplelogin-routes.ts'
import { addyRoutes } from './compat/addy-routes.ts'
import { keyCors } from './http/key-cors.ts'
import { domainRoutes } from './domains/domain-routes.ts'
import { usernameRoutes } from './account/username-routes.ts'
import { aliasContactRoutes } from './contacts/alias-contact-routes.ts'
import { senderBlockSettingsRoutes } from './contacts/sender-block-settings-routes.ts'
import { unsubscribeEventRoutes } from './contacts/unsubscribe-event-routes.ts'
import { unsubscribeRoutes } from './contacts/unsubscribe-routes.ts'

export const MAX_JSON_BYTES = 1024 * 1024

export function createApi() {
  return new Hono<AppEnv>()
    .route('/', systemRoutes)
    .route('/auth', authRoutes)
    .route('/auth', accountMailRoutes)
    .route('/auth', secondFactorRoutes)
    .route('/auth/passkey', passkeySignInRoutes)
    .route('/auth/wallet', walletRoutes)
    .route('/auth/google', googleRoutes)
    .route('/auth/microsoft', microsoftRoutes)
    .route('/', accountRoutes)
    .route('/account', totpRoutes)
    .route('/account/sessions', sessionRoutes)
    .route('/account/passkeys', passkeyRoutes)
    .route('/account', passwordRoutes)
    .route('/aliases', aliasRoutes)
    .route('/domains', domainRoutes)
    .route('/account', usernameRoutes)
    .route('/api-keys', apiKeyRoutes)
    .route('/app-alias-settings', appAliasSettingsRoutes)
    .route('/forward-targets', forwardTargetRoutes)
    .route('/bounces', bounceRoutes)
    .route('/smtp-credentials', smtpRoutes)
    .route('/email-jobs', emailJobRoutes)
    .route('/drafts', draftRoutes)
    .route('/undelivered', undeliveredRoutes)
    .route('/email-providers', emailProviderRoutes)
    .route('/emails', emailRoutes)
    .route('/alias-contacts', aliasContactRoutes)
    .route('/sender-block-settings', senderBlockSettingsRoutes)
    .route('/unsubscribe-events', unsubscribeEventRoutes)
    .route('/unsubscribe', unsubscribeRoutes)
    .route('/', encryptionRoutes)
    .get('/openapi.json', async (c) => c.json(await openApiJson(cookieName(c.var.deps.config))))
}

const openApi = new Map<string, Promise<object>>()
/** Built once per session cookie name, on first request, from the same routes the app serves. */
function openApiJson(sessionCookie: string): Promise<object> {
  let doc = openApi.get(sessionCookie)
  if (!doc) openApi.set(sessionCookie, (doc = openApiDocument(createApi() as unknown as Hono<AppEnv>, packageVersion(), sessionCookie)))
  return doc
}
const packageVersion = () => (JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>()

  app.use(async (c, next) => {
    const started = performance.now()
    const requestId = randomUUID()
    c.set('deps', deps)
    c.set('requestId', requestId)
    c.header('X-Request-Id', requestId)
    await next()
    if (c.req.path.startsWith('/api/')) {
      log.debug('http.request', { request: requestId, method: c.req.method, route: c.req.routePath, status: c.res.status, ms: Math.round(performance.now() - started) })
    }
  })
  app.use(securityHeaders)
  app.use(compress({ threshold: 1024 }))
  app.use('/api/*', async (c, next) => {
    c.header('Cache-Control', 'no-store')
    await next()
  })
  // the routes an API key authenticates answer browser extensions' preflights (issue 28)
  app.use('/compat/*', keyCors)
  app.use('/api/aliases/*', keyCors)
  app.use(csrfGuard)
  app.use('/api/*', bodyLimit({ maxSize: MAX_JSON_BYTES, onError: (c) => c.json({ message: 'Request body is too large' }, 413) }))
  app.use('/compat/*', bodyLimit({ maxSize: MAX_JSON_BYTES, onError: (c) => c.json({ message: 'Request body is too large' }, 413) }))

  app.route('/api', createApi())
  app.all('/api/*', (c) => c.json({ message: 'Not found' }, 404))
  app.route('/compat/simplelogin', simpleLoginRoutes as unknown as Hono<AppEnv>)
  app.route('/compat/addy', addyRoutes as unknown as Hono<AppEnv>)
  app.all('/compat/*', (c) => c.json({ message: 'Not found' }, 404))
  if (deps.webRoot) app.use(webStatic(deps.webRoot))
  app.notFound((c) => c.json({ message: 'Not found' }, 404))

  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      const status = error.status
      const message = status === 400 && /JSON/i.test(error.message) ? 'Malformed JSON in request body' : error.message || 'Request failed'
      return c.json({ message }, status)
    }
    if (error instanceof SyntaxError) return c.json({ message: 'Malformed JSON in request body' }, 400)
    log.error('http.error', { request: c.var.requestId, method: c.req.method, route: c.req.routePath, ...errorFields(error), stack: stackFrames(error) })
    return c.json({ message: 'Internal server error', requestId: c.var.requestId }, 500)
  })
  return app
}

/** Where an error was thrown, without its message (messages can quote user input). */
function stackFrames(error: unknown): string | undefined {
  if (!(error instanceof Error) || !error.stack) return undefined
  return error.stack.split('\n').slice(1, 6).map((l) => l.trim()).join(' | ')
}
