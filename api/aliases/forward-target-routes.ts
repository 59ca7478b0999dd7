// Forward targets on the dashboard (issue 11 item 5): each e-mail address the user forwards to,
// whether it confirmed, how many forwards wait for it, and "resend the confirmation link"; its
// hard bounces in a row, the mark that stops forwards, and "send a test mail" / re-enable (issue 30).
import type { Context } from 'hono'
import { Hono } from 'hono'
import { findTargetTestMail } from '../../db/email-jobs.ts'
import { findForwardTarget, listForwardTargets } from '../../db/forward-targets.ts'
import { reenableTarget } from '../../db/target-reenable.ts'
import type { RateLimitHit } from '../../db/rate-limits.ts'
import { mailTargetConfirmation } from '../auth/account-links.ts'
import { EmailOnlySchema } from '../../shared/auth-schemas.ts'
import type { AuthedEnv } from '../auth/session.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import type { ForwardTargetView } from '../../shared/alias-schemas.ts'
import { queueTargetTestMail, targetTestMailView } from './target-test-mail.ts'

/**
 * Mails `email` a confirmation link for the signed-in user, counted per user and per address
 * first; the hit that refused it, if any.
 */
export async function sendTargetConfirmation<E extends AuthedEnv>(c: Context<E>, email: string): Promise<RateLimitHit | undefined> {
  const userId = c.var.user.id
  for (const [action, key] of [['confirm-user', userId], ['mail-address', email]] as const) {
    const hit = await countAction(c, action, key, action === 'confirm-user' ? { userId } : {})
    if (!hit.allowed) return hit
  }
  await mailTargetConfirmation(c.var.deps.sql, c.var.deps, userId, email)
  return undefined
}

export const forwardTargetRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    const rows = await listForwardTargets(c.var.deps.sql, c.var.user.id)
    const targets: ForwardTargetView[] = rows.map((r) => ({
      email: r.email, confirmed: r.confirmedAt !== null, held: r.held, bounces: r.bounces, disabled: r.disabledAt !== null,
      lastBounce: r.lastCode !== null ? { code: r.lastCode, reason: r.lastReason ?? '' } : null,
    }))
    return c.json({ targets })
  })
  .post('/resend', signedIn, jsonBody(EmailOnlySchema), async (c) => {
    const email = c.req.valid('json').email.toLowerCase()
    const target = await findForwardTarget(c.var.deps.sql, c.var.user.id, email)
    if (!target) return notFound(c)
    if (target.confirmedAt) return c.json({ message: 'This address is already confirmed.' })
    const refused = await sendTargetConfirmation(c, email)
    if (refused) return tooMany(c, refused, 'Too many confirmation e-mails. Please try again later.')
    return c.json({ message: `A new confirmation link is on its way to ${email}.` })
  })
  // issue 30: a target marked for its hard bounces takes forwards again once its owner says so…
  .post('/enable', signedIn, jsonBody(EmailOnlySchema), async (c) => {
    const email = c.req.valid('json').email.toLowerCase()
    if (!(await findForwardTarget(c.var.deps.sql, c.var.user.id, email))) return notFound(c)
    const { sql, boss } = c.var.deps
    const enabled = await sql.begin((tx) => reenableTarget(tx, boss, c.var.user.id, email))
    return c.json({ message: enabled ? `Forwarding to ${email} is on again.` : 'This address is not stopped.' })
  })
  // …or once a test mail to it is taken (counted like the account's other mail to one address):
  // queued for the delivery process, which sends it; the browser polls its status
  .post('/test', signedIn, jsonBody(EmailOnlySchema), async (c) => {
    const email = c.req.valid('json').email.toLowerCase()
    const target = await findForwardTarget(c.var.deps.sql, c.var.user.id, email)
    if (!target?.confirmedAt) return notFound(c)
    const hit = await countAction(c, 'mail-address', email)
    if (!hit.allowed) return tooMany(c, hit, 'Too many mails to this address. Please try again later.')
    const jobId = await queueTargetTestMail(c.var.deps, c.var.user.id, email)
    const statusUrl = `/api/forward-targets/test/${jobId}`
    c.header('Location', statusUrl)
    return c.json({ jobId, statusUrl, message: `A test mail to ${email} is on its way.` }, 202)
  })
  .get('/test/:testMailId', signedIn, async (c) => {
    const job = await findTargetTestMail(c.var.deps.sql, c.var.user.id, c.req.param('testMailId'))
    return job ? c.json(targetTestMailView(job)) : notFound(c)
  })
