// Undelivered mail (issue #6): the owner's list, Retry (the kept encrypted copy goes to the
// target again, through the retry-undelivered queue) and Delete.
import { Hono } from 'hono'
import { deleteUndeliveredMessage, findUndeliveredMessage, listUndeliveredMessages, markUndeliveredRetrying, type UndeliveredRow } from '../../db/undelivered-messages.ts'
import { enqueue, queues } from '../../workers/queues.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import type { UndeliveredView } from './undelivered-schemas.ts'

function undeliveredView(row: UndeliveredRow): UndeliveredView {
  return {
    id: row.id, aliasId: row.aliasId, alias: `${row.alias}@${row.domain}`, target: row.target, reason: row.reason,
    kept: row.kept, status: row.status, retries: row.retries,
    createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(),
  }
}

export const undeliveredRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    const rows = await listUndeliveredMessages(c.var.deps.sql, c.var.user.id)
    return c.json({ undelivered: rows.map(undeliveredView) })
  })
  .post('/:undeliveredId/retry', signedIn, async (c) => {
    const { sql, boss } = c.var.deps
    const userId = c.var.user.id
    const id = c.req.param('undeliveredId')
    const row = await findUndeliveredMessage(sql, userId, id)
    if (!row) return notFound(c)
    if (!row.kept) return c.json({ message: 'No copy of this message was kept, so it cannot be sent again.' }, 409)
    const queued = await sql.begin(async (tx) => {
      if (!(await markUndeliveredRetrying(tx, userId, id))) return false
      await enqueue(tx, boss, queues.retryUndelivered, { undeliveredId: id })
      return true
    })
    if (!queued) return c.json({ message: 'This message is already being sent again.' }, 409)
    return c.json({ message: 'Sending it again', undelivered: undeliveredView((await findUndeliveredMessage(sql, userId, id)) ?? row) }, 202)
  })
  .delete('/:undeliveredId', signedIn, async (c) => {
    if (!(await deleteUndeliveredMessage(c.var.deps.sql, c.var.user.id, c.req.param('undeliveredId')))) return notFound(c)
    return c.json({ message: 'Undelivered message deleted' })
  })
