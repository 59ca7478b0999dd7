// The dashboard's notice (issue 30): what an unsubscribe or block link did without a sign-in,
// with Undo (the alias resumed, or the sender unblocked) and dismiss.
import { Hono } from 'hono'
import { unblockContact } from '../../db/alias-contacts.ts'
import { findAlias, updateAlias } from '../../db/aliases.ts'
import { closeUnsubscribeEvent, listOpenUnsubscribeEvents, type UnsubscribeEvent } from '../../db/unsubscribe-events.ts'
import type { UnsubscribeEventView } from '../../shared/sender-block-schemas.ts'
import { pauseChanges } from '../aliases/alias-routes.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'

const eventView = (e: UnsubscribeEvent): UnsubscribeEventView => ({
  id: e.id, aliasId: e.aliasId, alias: `${e.alias}@${e.domain}`, contact: e.contactAddress, action: e.action, via: e.via, createdAt: e.createdAt.toISOString(),
})

export const unsubscribeEventRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => c.json({ events: (await listOpenUnsubscribeEvents(c.var.deps.sql, c.var.user.id)).map(eventView) }))
  .post('/:eventId/undo', signedIn, async (c) => {
    const { sql } = c.var.deps
    const userId = c.var.user.id
    const undone = await sql.begin(async (tx) => {
      const event = await closeUnsubscribeEvent(tx, userId, c.req.param('eventId'))
      if (!event) return false
      if (event.action === 'block') {
        if (event.contactId) await unblockContact(tx, event.contactId)
        return true
      }
      const alias = await findAlias(tx, userId, event.aliasId)
      if (alias) await updateAlias(tx, userId, alias.id, pauseChanges(alias, true))
      return true
    })
    if (!undone) return notFound(c)
    return c.json({ message: 'Undone' })
  })
  .delete('/:eventId', signedIn, async (c) => {
    if (!(await closeUnsubscribeEvent(c.var.deps.sql, c.var.user.id, c.req.param('eventId')))) return notFound(c)
    return c.json({ message: 'Dismissed' })
  })
