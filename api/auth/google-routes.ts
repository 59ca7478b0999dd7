// Google sign-in: OpenID Connect authorization code flow with PKCE and state (arctic's
// generic OAuth2Client, so the endpoints are configurable and tests use a local stand-in).
// The callback signs in by googleId, links an existing account only when Google says the
// e-mail is verified and our account's address was verified too, or creates the account.
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from 'arctic'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import * as v from 'valibot'
import { findUserByEmail, findUserByGoogleId, insertUser, linkGoogleAccount } from '../../db/users.ts'
import { errorFields, log } from '../../lib/log.ts'
import type { AppEnv } from '../context.ts'
import { reserveSignIn } from '../http/sign-in-limit.ts'
import { completeFirstFactor } from './first-factor.ts'

const STATE_COOKIE = 'veilmail_google_state'
const VERIFIER_COOKIE = 'veilmail_google_verifier'
const COOKIE_PATH = '/api/auth/google'

const GoogleUserInfo = v.object({
  sub: v.pipe(v.string('Google ID is required'), v.nonEmpty('Google ID is required')),
  email: v.optional(v.pipe(v.string(), v.email())),
  email_verified: v.optional(v.boolean()),
  given_name: v.optional(v.string()),
  family_name: v.optional(v.string()),
  picture: v.optional(v.pipe(v.string(), v.url())),
})

function notConfigured(c: Context) {
  return c.html(
    '<!doctype html><meta charset="utf-8"><title>Google sign-in is not configured</title>' +
      '<body style="font-family:system-ui;max-width:32rem;margin:4rem auto;padding:0 1rem">' +
      '<h1>Google sign-in is not configured</h1><p>This Veilmail server has no Google client set up ' +
      '(GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). Sign in with e-mail or a Solana wallet instead.</p>' +
      '<p><a href="/auth">Back to sign in</a></p></body>',
    503,
  )
}

const failed = (c: Context) => c.redirect('/auth?error=google', 302)

export const googleRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const { config } = c.var.deps
    if (!config.google) return notConfigured(c)
    const client = new OAuth2Client(config.google.clientId, config.google.clientSecret, `${config.publicUrl}/api/auth/google/callback`)
    const state = generateState()
    const verifier = generateCodeVerifier()
    const url = client.createAuthorizationURLWithPKCE(config.google.authUrl, state, CodeChallengeMethod.S256, verifier, ['openid', 'email', 'profile'])
    const cookie = { httpOnly: true, sameSite: 'Lax' as const, secure: config.secureCookies, path: COOKIE_PATH, maxAge: 600 }
    setCookie(c, STATE_COOKIE, state, cookie)
    setCookie(c, VERIFIER_COOKIE, verifier, cookie)
    return c.redirect(url.toString(), 302)
  })
  .get('/callback', async (c) => {
    const { config, sql } = c.var.deps
    if (!config.google) return notConfigured(c)
    const state = getCookie(c, STATE_COOKIE)
    const verifier = getCookie(c, VERIFIER_COOKIE)
    deleteCookie(c, STATE_COOKIE, { path: COOKIE_PATH })
    deleteCookie(c, VERIFIER_COOKIE, { path: COOKIE_PATH })
    const code = c.req.query('code')
    if (!code || !state || !verifier || c.req.query('state') !== state) return failed(c)
    // Counted before we call Google's token endpoint, so concurrent callbacks cannot all make the
    // server spend requests; given back when the account signs in.
    const attempt = await reserveSignIn(c)
    if (attempt.refused) return failed(c)

    let info: v.InferOutput<typeof GoogleUserInfo>
    try {
      const client = new OAuth2Client(config.google.clientId, config.google.clientSecret, `${config.publicUrl}/api/auth/google/callback`)
      const tokens = await client.validateAuthorizationCode(config.google.tokenUrl, code, verifier)
      const response = await fetch(config.google.userInfoUrl, { headers: { Authorization: `Bearer ${tokens.accessToken()}` }, signal: AbortSignal.timeout(10_000) })
      if (!response.ok) throw new Error(`userinfo answered ${response.status}`)
      info = v.parse(GoogleUserInfo, await response.json())
    } catch (error) {
      log.warn('auth.google_failed', errorFields(error))
      return failed(c)
    }

    let user = await findUserByGoogleId(sql, info.sub)
    if (!user && info.email) {
      const existing = await findUserByEmail(sql, info.email)
      if (existing) {
        if (info.email_verified !== true) return failed(c) // never take over an account on an unverified claim
        // An account whose address nobody proved may be someone else's claim on it (pre-account
        // takeover): Google links only to a verified address. The owner proves it by the link in
        // the mail, or by resetting the password, and can then sign in with Google.
        if (existing.emailVerifiedAt === null) return c.redirect('/auth?error=google-unverified', 302)
        await linkGoogleAccount(sql, existing.id, info.sub)
        user = existing
      }
    }
    user ??= await insertUser(sql, {
      email: info.email_verified ? info.email : null,
      emailVerified: info.email_verified === true,
      googleId: info.sub,
      authMethod: 'google',
      firstName: info.given_name,
      lastName: info.family_name,
      profileImageUrl: info.picture,
    })
    if (!user) return failed(c)
    await attempt.succeeded()
    // With a second factor on, the browser holds only a pending sign-in: the second step's page asks for the code.
    const pending = await completeFirstFactor(c, user.id)
    return c.redirect(pending ? '/auth/second-factor' : '/dashboard', 302)
  })
