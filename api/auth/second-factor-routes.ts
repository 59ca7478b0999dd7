// The second step of a sign-in: GET /api/auth/second-factor (which methods this browser's pending
// sign-in can use) and POST /api/auth/second-factor { code } (a TOTP or a recovery code), which
// starts the session. Only the browser that passed the first factor holds the pending cookie.
import { Hono } from 'hono'
import { findUserById } from '../../db/users.ts'
import { CodeSchema } from '../../shared/account-protection-schemas.ts'
import type { AppEnv } from '../context.ts'
import { jsonBody } from '../http/validate.ts'
import { finishPendingSignIn, pendingSignInUser, secondFactorMethods } from './first-factor.ts'
import { checkSecondFactorCode, WRONG_CODE } from './second-factor-check.ts'
import { queueSecurityNotice } from './security-notice.ts'
import { publicUser } from './session.ts'

export const SIGN_IN_EXPIRED = 'Your sign-in has expired. Please sign in again.'

export const secondFactorRoutes = new Hono<AppEnv>()
  .get('/second-factor', async (c) => {
    const userId = await pendingSignInUser(c)
    if (!userId) return c.json({ message: SIGN_IN_EXPIRED }, 401)
    return c.json({ methods: await secondFactorMethods(c.var.deps.sql, userId) })
  })
  .post('/second-factor', jsonBody(CodeSchema), async (c) => {
    const userId = await pendingSignInUser(c)
    if (!userId) return c.json({ message: SIGN_IN_EXPIRED }, 401)
    const check = await checkSecondFactorCode(c, userId, c.req.valid('json').code)
    if (check.refused) return check.refused
    if (!check.passed) return c.json({ message: WRONG_CODE, errors: { code: [WRONG_CODE] } }, 401)
    if (!(await finishPendingSignIn(c, userId))) return c.json({ message: SIGN_IN_EXPIRED }, 401)
    const user = await findUserById(c.var.deps.sql, userId)
    if (!user) return c.json({ message: SIGN_IN_EXPIRED }, 401)
    if (check.passed === 'recovery-code') await queueSecurityNotice(c.var.deps.sql, c.var.deps, user, 'recovery-code-used')
    return c.json({ user: publicUser(user) })
  })
