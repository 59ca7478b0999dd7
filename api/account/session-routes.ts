// Where the user is signed in: GET /api/account/sessions, DELETE /api/account/sessions/{id},
// POST /api/account/sessions/end-others. A session shows the browser and system named at sign-in
// and its dates to the day; no address is kept.
import { Hono } from 'hono'
import { deleteOtherSessions, deleteUserSession, listUserSessions } from '../../db/sessions.ts'
import type { SessionInfo } from '../../shared/account-protection-schemas.ts'
import { currentSessionId, endSession } from '../auth/session.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedInUnverified } from '../http/ownership.ts'

const day = (date: Date) => date.toISOString().slice(0, 10)

export const sessionRoutes = new Hono<AppEnv>()
  .get('/', signedInUnverified, async (c) => {
    const current = await currentSessionId(c)
    const rows = await listUserSessions(c.var.deps.sql, c.var.user.id)
    const sessions: SessionInfo[] = rows.map((row) => ({
      id: row.id, current: row.id === current, browser: row.browser, os: row.os, createdAt: day(row.createdAt), lastSeenAt: day(row.lastSeenAt),
    }))
    return c.json({ sessions })
  })
  .post('/end-others', signedInUnverified, async (c) => {
    const ended = await deleteOtherSessions(c.var.deps.sql, c.var.user.id, await currentSessionId(c))
    return c.json({ ended })
  })
  .delete('/:sessionId', signedInUnverified, async (c) => {
    const id = c.req.param('sessionId')
    const current = await currentSessionId(c)
    if (!(await deleteUserSession(c.var.deps.sql, c.var.user.id, id))) return notFound(c)
    if (id === current) await endSession(c)
    return c.json({ message: 'Signed out' })
  })
