// WebAuthn (passkeys) with @simplewebauthn/server: the relying party is PUBLIC_URL's host (its RP
// ID) and origin. Each ceremony's challenge is handed to one browser: a random token in a cookie
// (HttpOnly, SameSite=Strict, 5 minutes), the challenge in webauthn_challenges under the token's
// SHA-256, spent by the response that answers it.
import { createHash, randomBytes } from 'node:crypto'
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON, type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { findPasskeyByCredentialId, listPasskeys, markPasskeyUsed, type PasskeyRow } from '../../db/passkeys.ts'
import { CHALLENGE_SECONDS, insertWebauthnChallenge, spendWebauthnChallenge, type ChallengePurpose } from '../../db/webauthn-challenges.ts'
import type { Config } from '../../lib/config.ts'
import { errorFields, log } from '../../lib/log.ts'
import type { AppEnv } from '../context.ts'

const RP_NAME = 'Veilmail'
const cookieName = (config: Config) => (config.secureCookies ? '__Host-veilmail_webauthn' : 'veilmail_webauthn')
const hashToken = (token: string) => createHash('sha256').update(token).digest()

/** The relying party: PUBLIC_URL decides the RP ID (its host name) and the one origin accepted. */
export const relyingParty = (config: Config) => {
  const url = new URL(config.publicUrl)
  return { id: url.hostname, origin: url.origin }
}

async function holdChallenge<E extends AppEnv>(c: Context<E>, purpose: ChallengePurpose, userId: string | null, challenge: string): Promise<void> {
  const { sql, config } = c.var.deps
  const token = randomBytes(32).toString('base64url')
  await insertWebauthnChallenge(sql, { tokenHash: hashToken(token), userId, purpose, challenge })
  setCookie(c, cookieName(config), token, { httpOnly: true, sameSite: 'Strict', secure: config.secureCookies, path: '/', maxAge: CHALLENGE_SECONDS })
}

/** The challenge this browser was handed (spent now, whatever comes of it). */
async function takeChallenge<E extends AppEnv>(c: Context<E>) {
  const { sql, config } = c.var.deps
  const token = getCookie(c, cookieName(config))
  deleteCookie(c, cookieName(config), { path: '/', secure: config.secureCookies })
  if (!token || token.length > 100) return undefined
  return spendWebauthnChallenge(sql, hashToken(token))
}

/** Options for navigator.credentials.create(): a discoverable credential, none of the user's existing ones again. */
export async function registrationOptions<E extends AppEnv>(c: Context<E>, user: { id: string; email: string | null; walletAddress: string | null }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(c.var.deps.config)
  const existing = await listPasskeys(c.var.deps.sql, user.id)
  const options = await generateRegistrationOptions({
    rpName: RP_NAME, rpID: rp.id,
    userName: user.email ?? user.walletAddress ?? user.id,
    userID: Buffer.from(user.id.replaceAll('-', ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  await holdChallenge(c, 'register', user.id, options.challenge)
  return options
}

/** The new credential, when the response answers this browser's challenge for this user. */
export async function verifyRegistration<E extends AppEnv>(c: Context<E>, userId: string, response: RegistrationResponseJSON) {
  const held = await takeChallenge(c)
  if (!held || held.purpose !== 'register' || held.userId !== userId) return undefined
  const rp = relyingParty(c.var.deps.config)
  try {
    const result = await verifyRegistrationResponse({ response, expectedChallenge: held.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true })
    return result.verified ? result.registrationInfo.credential : undefined
  } catch (error) {
    log.info('auth.passkey_registration_refused', errorFields(error))
    return undefined
  }
}

/** Options for navigator.credentials.get(): any passkey of this site (discoverable), or one of `userId`'s for a second step. */
export async function authenticationOptions<E extends AppEnv>(c: Context<E>, purpose: Exclude<ChallengePurpose, 'register'>, userId: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(c.var.deps.config)
  const allow = userId ? (await listPasskeys(c.var.deps.sql, userId)).map((p) => ({ id: p.credentialId, transports: p.transports })) : undefined
  const options = await generateAuthenticationOptions({ rpID: rp.id, allowCredentials: allow, userVerification: 'required' })
  await holdChallenge(c, purpose, userId, options.challenge)
  return options
}

/**
 * The passkey whose assertion answers this browser's challenge (its counter moved on), with the
 * purpose the challenge was for; undefined for anything else.
 */
export async function verifyAuthentication<E extends AppEnv>(c: Context<E>, response: AuthenticationResponseJSON): Promise<{ passkey: PasskeyRow; purpose: ChallengePurpose; userId: string | null } | undefined> {
  const held = await takeChallenge(c)
  if (!held || held.purpose === 'register') return undefined
  const { sql, config } = c.var.deps
  const passkey = typeof response.id === 'string' && response.id.length <= 1024 ? await findPasskeyByCredentialId(sql, response.id) : undefined
  if (!passkey || (held.userId !== null && held.userId !== passkey.userId)) return undefined
  const rp = relyingParty(config)
  try {
    const result = await verifyAuthenticationResponse({
      response, expectedChallenge: held.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports as never },
    })
    if (!result.verified) return undefined
    await markPasskeyUsed(sql, passkey.id, result.authenticationInfo.newCounter)
    return { passkey, purpose: held.purpose, userId: held.userId }
  } catch (error) {
    log.info('auth.passkey_assertion_refused', errorFields(error))
    return undefined
  }
}
