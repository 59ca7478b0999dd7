// The links the service mails about an account (issue 11 item 3): verify the address, resend that
// link, forgot password, set a new one; and the forward-target confirmation link (item 5). Every
// request is counted before any work is done (one atomic upsert per limit), and "forgot password"
// and "resend" answer the same whether or not the address has an account.
import type { Context } from 'hono'
import { Hono } from 'hono'
import * as v from 'valibot'
import { consumeAccountToken, expireAccountTokens } from '../../db/account-tokens.ts'
import { deleteUserSessions } from '../../db/sessions.ts'
import { findUserByEmail, markEmailVerified, resetPassword, type UserRow } from '../../db/users.ts'
import { confirmTarget } from '../aliases/confirm-target.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { invalid, jsonBody } from '../http/validate.ts'
import { hashToken, mailPasswordResetLink, mailVerificationLink } from './account-links.ts'
import { EmailOnlySchema, ResetPasswordSchema, TokenSchema } from '../../shared/auth-schemas.ts'
import { hashPassword } from '../../lib/password.ts'
import { completeFirstFactor } from './first-factor.ts'
import { awaitingVerification, publicUser, sessionUser } from './session.ts'

export const INVALID_LINK = 'This link is invalid or has expired'
export const RESEND_SENT = 'If this address has an account waiting for confirmation, a new link is on its way.'
export const RESET_SENT = 'If an account uses this address, a link to reset its password is on its way.'

const TOO_MANY_MAILS = 'Too many e-mails were requested. Please try again later.'
const TOO_MANY_LINKS = 'Too many attempts. Please try again later.'

const badLink = (c: Context) => c.json({ message: INVALID_LINK, errors: { token: [INVALID_LINK] } }, 400)

export const accountMailRoutes = new Hono<AppEnv>()
  .post('/verify-email', jsonBody(TokenSchema), async (c) => {
    const ip = clientIp(c)
    const hit = await countAction(c, 'token-ip', ip, { ipAddress: ip })
    if (!hit.allowed) return tooMany(c, hit, TOO_MANY_LINKS)
    const { sql } = c.var.deps
    const verified = await sql.begin(async (tx) => {
      const token = await consumeAccountToken(tx, 'verify-email', hashToken(c.req.valid('json').token))
      return token && markEmailVerified(tx, token.userId, token.email)
    })
    if (!verified?.email) return badLink(c)
    // The account's own address is a forward target it has just proven.
    await confirmTarget(c.var.deps, verified.id, verified.email)
    // The link proves the mailbox: a first factor. An older unused link of an account that has
    // since turned on a second factor leads to the second step like a password does.
    const pending = await completeFirstFactor(c, verified.id)
    return c.json(pending ?? { user: publicUser(verified) })
  })
  .post('/resend-verification', async (c) => {
    // Signed in but unverified: the session's address. Otherwise the address the form names.
    const session = await sessionUser(c)
    let email = session && awaitingVerification(session) ? session.email! : undefined
    if (!email) {
      const parsed = v.safeParse(EmailOnlySchema, (await c.req.json().catch(() => ({}))) ?? {}, { abortPipeEarly: true })
      if (!parsed.success) return invalid(c, parsed.issues)
      email = parsed.output.email.toLowerCase()
    }
    const ip = clientIp(c)
    for (const [action, key] of [['mail-ip', ip], ['mail-address', email]] as const) {
      const hit = await countAction(c, action, key, action === 'mail-ip' ? { ipAddress: ip } : {})
      if (!hit.allowed) return tooMany(c, hit, TOO_MANY_MAILS)
    }
    const user = await findUserByEmail(c.var.deps.sql, email)
    if (user && awaitingVerification(user)) await mailVerificationLink(c.var.deps.sql, c.var.deps, { id: user.id, email: user.email! })
    return c.json({ message: RESEND_SENT })
  })
  .post('/forgot-password', jsonBody(EmailOnlySchema), async (c) => {
    const email = c.req.valid('json').email.toLowerCase()
    const ip = clientIp(c)
    for (const [action, key] of [['mail-ip', ip], ['mail-address', email]] as const) {
      const hit = await countAction(c, action, key, action === 'mail-ip' ? { ipAddress: ip } : {})
      if (!hit.allowed) return tooMany(c, hit, TOO_MANY_MAILS)
    }
    const user = await findUserByEmail(c.var.deps.sql, email)
    if (user?.email) await mailPasswordResetLink(c.var.deps.sql, c.var.deps, { id: user.id, email: user.email })
    return c.json({ message: RESET_SENT })
  })
  .post('/reset-password', jsonBody(ResetPasswordSchema), async (c) => {
    const ip = clientIp(c)
    const hit = await countAction(c, 'token-ip', ip, { ipAddress: ip })
    if (!hit.allowed) return tooMany(c, hit, TOO_MANY_LINKS)
    const { token, password } = c.req.valid('json')
    const passwordHash = await hashPassword(password)
    const user: UserRow | undefined = await c.var.deps.sql.begin(async (tx) => {
      const spent = await consumeAccountToken(tx, 'reset-password', hashToken(token))
      const changed = spent && (await resetPassword(tx, spent.userId, spent.email, passwordHash))
      if (!changed) return undefined
      // Every session ends (the one that asked is not signed in) and older reset links die.
      await deleteUserSessions(tx, changed.id)
      await expireAccountTokens(tx, changed.id, 'reset-password')
      return changed
    })
    if (!user) return badLink(c)
    return c.json({ message: 'Your password has been changed. Sign in with your new password.' })
  })
  .post('/confirm-target', jsonBody(TokenSchema), async (c) => {
    const ip = clientIp(c)
    const hit = await countAction(c, 'token-ip', ip, { ipAddress: ip })
    if (!hit.allowed) return tooMany(c, hit, TOO_MANY_LINKS)
    const spent = await consumeAccountToken(c.var.deps.sql, 'confirm-target', hashToken(c.req.valid('json').token))
    if (!spent) return badLink(c)
    await confirmTarget(c.var.deps, spent.userId, spent.email)
    return c.json({ message: `Mail will now be forwarded to ${spent.email}.`, email: spent.email })
  })
