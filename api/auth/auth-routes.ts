// E-mail + password accounts and the session: /api/auth/register, login, logout, session.
// Verification, resend and password reset: account-mail-routes.ts.
import { Hono } from 'hono'
import { findUserByEmail, insertUser } from '../../db/users.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { reserveSignIn } from '../http/sign-in-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { LoginSchema, RegisterSchema } from '../../shared/auth-schemas.ts'
import { hashPassword, verifyPassword } from '../../lib/password.ts'
import { CHECK_MAIL, registerAccount } from './registration.ts'
import { completeFirstFactor, dropPendingSignIn } from './first-factor.ts'
import { endSession, publicUser, sessionUser } from './session.ts'

const INVALID_LOGIN = 'Invalid email or password'

export const authRoutes = new Hono<AppEnv>()
  .get('/session', async (c) => {
    const user = await sessionUser(c)
    if (!user) return c.json({ message: 'Not signed in' }, 401)
    return c.json({ user: publicUser(user) })
  })
  .get('/providers', (c) => c.json({ google: Boolean(c.var.deps.config.google), microsoft: Boolean(c.var.deps.config.microsoft) }))
  .post('/register', jsonBody(RegisterSchema), async (c) => {
    const { email, password } = c.req.valid('json')
    const ip = clientIp(c)
    const hit = await countAction(c, 'register-ip', ip, { ipAddress: ip })
    if (!hit.allowed) return tooMany(c, hit, 'Too many accounts created from this address. Please try again later.')
    const byAddress = await countAction(c, 'mail-address', email.toLowerCase())
    if (!byAddress.allowed) return tooMany(c, byAddress, 'Too many e-mails were sent to this address. Please try again later.')
    await registerAccount(c.var.deps, email, await hashPassword(password))
    // The same answer whether the address was free or taken (no account enumeration); nobody is
    // signed in until the link in the mail proves the address.
    return c.json({ message: CHECK_MAIL, email: email.toLowerCase() }, 202)
  })
  .post('/login', jsonBody(LoginSchema), async (c) => {
    const { email, password } = c.req.valid('json')
    const { sql } = c.var.deps
    // Counted before the hash is spent, so concurrent guesses cannot all be checked.
    const attempt = await reserveSignIn(c, email.toLowerCase())
    if (attempt.refused) return attempt.refused
    const user = await findUserByEmail(sql, email)
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) return c.json({ message: INVALID_LOGIN }, 401)
    await attempt.succeeded()
    // With a second factor on, no session yet: the answer says which step comes next.
    const pending = await completeFirstFactor(c, user.id)
    return c.json(pending ?? { user: publicUser(user) })
  })
  .post('/logout', async (c) => {
    await endSession(c)
    await dropPendingSignIn(c)
    return c.json({ message: 'Logged out' })
  })
