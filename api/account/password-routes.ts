// POST /api/account/password { currentPassword, password }: the signed-in owner changes the
// password. The attempt is counted before the hash is checked (the sign-in limits: per address and
// spaced per account), every other session ends, older reset links die, and the owner is told.
import { Hono } from 'hono'
import { expireAccountTokens } from '../../db/account-tokens.ts'
import { deleteOtherSessions } from '../../db/sessions.ts'
import { updatePasswordHash } from '../../db/users.ts'
import { hashPassword, verifyPassword } from '../../lib/password.ts'
import { ChangePasswordSchema } from '../../shared/account-protection-schemas.ts'
import { queueSecurityNotice } from '../auth/security-notice.ts'
import { currentSessionId } from '../auth/session.ts'
import type { AppEnv } from '../context.ts'
import { reserveSignIn } from '../http/sign-in-limit.ts'
import { signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

export const passwordRoutes = new Hono<AppEnv>()
  .post('/password', signedIn, jsonBody(ChangePasswordSchema), async (c) => {
    const user = c.var.user
    const { currentPassword, password } = c.req.valid('json')
    if (!user.passwordHash || !user.email) return c.json({ message: 'This account signs in without a password' }, 409)
    const attempt = await reserveSignIn(c, user.email.toLowerCase())
    if (attempt.refused) return attempt.refused
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      return c.json({ message: 'Wrong password', errors: { currentPassword: ['Wrong password'] } }, 400)
    }
    await attempt.succeeded()
    const passwordHash = await hashPassword(password)
    const keep = await currentSessionId(c)
    const { sql } = c.var.deps
    const ended = await sql.begin(async (tx) => {
      await updatePasswordHash(tx, user.id, passwordHash)
      const count = await deleteOtherSessions(tx, user.id, keep)
      await expireAccountTokens(tx, user.id, 'reset-password')
      await queueSecurityNotice(tx, c.var.deps, user, 'password-changed')
      return count
    })
    return c.json({ message: 'Your password has been changed. Every other session was signed out.', endedSessions: ended })
  })
