// Bounces on the dashboard (issue 30): the once-a-day notices not yet dismissed (per alias and
// target: the server's code and reason, how many, whether the target is now marked), their
// Dismiss, and the setting: how many hard bounces in a row mark a target (5 by default).
import { Hono } from 'hono'
import { closeBounceNotice, listOpenBounceNotices } from '../../db/bounce-notices.ts'
import { getBounceThreshold, saveBounceThreshold } from '../../db/bounce-settings.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'
import { BounceSettingsSchema, type BounceNoticeView } from '../../shared/bounce-schemas.ts'

export const bounceRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    const { sql } = c.var.deps
    const [notices, threshold] = await Promise.all([listOpenBounceNotices(sql, c.var.user.id), getBounceThreshold(sql, c.var.user.id)])
    const views: BounceNoticeView[] = notices.map((n) => ({ id: n.id, entries: n.entries, createdAt: n.createdAt.toISOString() }))
    return c.json({ notices: views, threshold })
  })
  .put('/', signedIn, jsonBody(BounceSettingsSchema), async (c) => {
    const { threshold } = c.req.valid('json')
    await saveBounceThreshold(c.var.deps.sql, c.var.user.id, threshold)
    return c.json({ message: `A forward target is stopped after ${threshold} hard bounce${threshold === 1 ? '' : 's'} in a row.`, threshold })
  })
  .delete('/:noticeId', signedIn, async (c) => {
    const id = c.req.param('noticeId')
    if (!(await closeBounceNotice(c.var.deps.sql, c.var.user.id, id))) return notFound(c)
    return c.json({ message: 'Notice dismissed' })
  })
