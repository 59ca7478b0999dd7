// Connecting an Outlook mailbox (OAuth2): the authorization-code flow with PKCE (RFC 7636) and
// state (RFC 6749 §10.12) against Microsoft's identity platform, through arctic's Microsoft Entra
// ID client (tenant `common`). The callback stores the account for the signed-in user with its
// access and refresh tokens sealed, queues its first sync (the first IMAP login, over XOAUTH2),
// and returns the browser to /inbox/settings with a status (shared/outlook-connection.ts). No
// token ever reaches the browser or a log. Off (404) unless MICROSOFT_CLIENT_ID/SECRET are set.
import { randomUUID } from 'node:crypto'
import { decodeIdToken, generateCodeVerifier, generateState, type OAuth2Tokens } from 'arctic'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import * as v from 'valibot'
import { findEmailProviderByEmail, insertEmailProvider, reconnectProvider } from '../../db/email-providers.ts'
import { errorFields, log } from '../../lib/log.ts'
import type { OutlookReturnReason } from '../../shared/outlook-connection.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'
import { microsoftClient, OUTLOOK_IMAP_SCOPES } from '../../lib/microsoft-client.ts'
import { requestSync } from '../../db/sync-requests.ts'
import type { AppEnv } from '../context.ts'
import { notFound } from '../http/ownership.ts'
import { awaitingVerification, sessionUser } from './session.ts'

const STATE_COOKIE = 'veilmail_microsoft_state'
const VERIFIER_COOKIE = 'veilmail_microsoft_verifier'
const COOKIE_PATH = '/api/auth/microsoft'
/** the ID token names the mailbox (openid, email); the rest is what the access token may do */
const SCOPES = ['openid', 'email', ...OUTLOOK_IMAP_SCOPES]

// OpenID Connect Core §3.1.3.7: the ID token came straight from the token endpoint over TLS, in
// an exchange our client secret authenticated, so TLS vouches for its issuer; it must be for us.
const IdTokenClaims = v.object({
  aud: v.string(),
  email: v.optional(v.string()),
  preferred_username: v.optional(v.string()),
})
const Mailbox = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email())

const settings = (c: Context, query: Record<string, string>) => c.redirect(`/inbox/settings?${new URLSearchParams(query)}`, 302)
const failed = (c: Context, reason: OutlookReturnReason) => settings(c, { status: 'error', reason })

/** The mailbox the tokens open, from the ID token; undefined when it names none or is not ours. */
function mailboxOf(tokens: OAuth2Tokens, clientId: string): string | undefined {
  try {
    const claims = v.parse(IdTokenClaims, decodeIdToken(tokens.idToken()))
    if (claims.aud !== clientId) return undefined
    const email = v.safeParse(Mailbox, claims.email ?? claims.preferred_username)
    return email.success ? email.output : undefined
  } catch {
    return undefined
  }
}

export const microsoftRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const { config } = c.var.deps
    if (!config.microsoft) return notFound(c)
    const user = await sessionUser(c)
    if (!user || awaitingVerification(user)) return c.redirect('/auth', 302)
    const state = generateState()
    const verifier = generateCodeVerifier()
    const url = microsoftClient(config).createAuthorizationURL(state, verifier, SCOPES)
    // the user chooses which Microsoft account's mailbox to connect, not just the one signed in
    url.searchParams.set('prompt', 'select_account')
    const cookie = { httpOnly: true, sameSite: 'Lax' as const, secure: config.secureCookies, path: COOKIE_PATH, maxAge: 600 }
    // the state is bound to the user who started, so a callback under another session is refused
    setCookie(c, STATE_COOKIE, `${state}.${user.id}`, cookie)
    setCookie(c, VERIFIER_COOKIE, verifier, cookie)
    return c.redirect(url.toString(), 302)
  })
  .get('/callback', async (c) => {
    const { config, sql, boss } = c.var.deps
    if (!config.microsoft) return notFound(c)
    const started = getCookie(c, STATE_COOKIE)
    const verifier = getCookie(c, VERIFIER_COOKIE)
    deleteCookie(c, STATE_COOKIE, { path: COOKIE_PATH })
    deleteCookie(c, VERIFIER_COOKIE, { path: COOKIE_PATH })
    const user = await sessionUser(c)
    if (!user || awaitingVerification(user)) return c.redirect('/auth', 302)
    // RFC 6749 §4.1.2.1: the user declined, or Microsoft could not ask
    if (c.req.query('error') !== undefined) return failed(c, 'denied')
    const code = c.req.query('code')
    const state = c.req.query('state')
    if (!code || !state || !started || !verifier || started !== `${state}.${user.id}`) return failed(c, 'state')

    let tokens: OAuth2Tokens
    try {
      tokens = await microsoftClient(config).validateAuthorizationCode(code, verifier)
    } catch (error) {
      log.warn('outlook.exchange_failed', { user: user.id, ...errorFields(error) })
      return failed(c, 'exchange')
    }
    const email = mailboxOf(tokens, config.microsoft.clientId)
    // without a refresh token (offline_access refused) the account would stop within the hour
    if (!email || !tokens.hasRefreshToken()) {
      log.warn('outlook.exchange_failed', { user: user.id, reason: email ? 'no-refresh-token' : 'no-mailbox' })
      return failed(c, 'exchange')
    }

    const existing = await findEmailProviderByEmail(sql, user.id, email)
    if (existing && existing.provider !== 'outlook') return failed(c, 'exists')
    const id = existing?.id ?? randomUUID()
    const credentials = sealCredentials(config, id, {
      email, tokenType: 'oauth2', accessToken: tokens.accessToken(), refreshToken: tokens.refreshToken(),
      expiresAt: tokens.accessTokenExpiresAt().getTime(), ...config.microsoft.imap, secure: true,
    })
    const stored = existing
      ? await reconnectProvider(sql, user.id, id, credentials, true)
      : (await insertEmailProvider(sql, { id, userId: user.id, provider: 'outlook', email, credentials })) !== undefined
    if (!stored) return failed(c, 'exists') // connected otherwise between the look-up and now
    const jobId = await requestSync(sql, boss, id)
    if (!jobId) return failed(c, 'exchange') // removed meanwhile
    log.info('outlook.connected', { user: user.id, provider: id, again: existing !== undefined })
    return settings(c, { status: 'success', providerId: id, jobId })
  })
