// Settings → Blocked senders (issue 30): what a mail client's Unsubscribe does, how a blocked
// sender is answered, and whether forwards carry the block link.
import { Hono } from 'hono'
import { getSenderBlockSettings, saveSenderBlockSettings } from '../../db/sender-block-settings.ts'
import { SenderBlockSettingsSchema } from '../../shared/sender-block-schemas.ts'
import type { AppEnv } from '../context.ts'
import { signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

export const senderBlockSettingsRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => c.json({ settings: await getSenderBlockSettings(c.var.deps.sql, c.var.user.id) }))
  .put('/', signedIn, jsonBody(SenderBlockSettingsSchema), async (c) => {
    await saveSenderBlockSettings(c.var.deps.sql, c.var.user.id, c.req.valid('json'))
    return c.json({ message: 'Saved' })
  })
