// Signing in with a passkey: POST /api/auth/passkey/options (a challenge for this browser: any
// passkey of this site, or, while a pending sign-in waits for its second step, one of that
// account's), then POST /api/auth/passkey { response }. A passkey is a complete sign-in (it is
// already two factors: the device and its unlock), so it asks for no second step.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import { Hono } from 'hono'
import { findUserById } from '../../db/users.ts'
import { PasskeyAssertionSchema } from '../../shared/account-protection-schemas.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { reserveSignIn } from '../http/sign-in-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { finishPendingSignIn, pendingSignInUser } from './first-factor.ts'
import { publicUser, startSession } from './session.ts'
import { authenticationOptions, verifyAuthentication } from './webauthn.ts'

const REFUSED = 'Passkey sign-in failed'

export const passkeySignInRoutes = new Hono<AppEnv>()
  .post('/options', async (c) => {
    const ip = clientIp(c)
    const hit = await countAction(c, 'webauthn-ip', ip, { ipAddress: ip })
    if (!hit.allowed) return tooMany(c, hit)
    const pending = await pendingSignInUser(c)
    return c.json(await authenticationOptions(c, pending ? 'second-factor' : 'sign-in', pending ?? null))
  })
  .post('/', jsonBody(PasskeyAssertionSchema), async (c) => {
    // Counted before the assertion is checked; given back when it signs in.
    const attempt = await reserveSignIn(c)
    if (attempt.refused) return attempt.refused
    const verified = await verifyAuthentication(c, c.req.valid('json').response as unknown as AuthenticationResponseJSON)
    // a challenge handed out to confirm a change in settings signs no one in
    if (!verified || verified.purpose === 'confirm') return c.json({ message: REFUSED }, 401)
    const user = await findUserById(c.var.deps.sql, verified.passkey.userId)
    if (!user) return c.json({ message: REFUSED }, 401)
    if (verified.purpose === 'second-factor') {
      if (!(await finishPendingSignIn(c, user.id))) return c.json({ message: 'Your sign-in has expired. Please sign in again.' }, 401)
    } else {
      await startSession(c, user.id)
    }
    await attempt.succeeded()
    return c.json({ user: publicUser(user) })
  })
