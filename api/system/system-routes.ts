// Health and public figures: GET /api/health, GET /api/stats, GET /api/domains.
import { Hono } from 'hono'
import type { AppEnv } from '../context.ts'
import { countUsersAndAliases } from '../../db/stats.ts'

export const systemRoutes = new Hono<AppEnv>()
  .get('/health', async (c) => {
    const { sql, boss } = c.var.deps
    const [db, queue] = await Promise.all([
      sql`select 1`.then(() => true, () => false),
      boss.getQueues().then(() => true, () => false),
    ])
    const ok = db && queue
    return c.json({ ok, db, queue }, ok ? 200 : 503)
  })
  .get('/stats', async (c) => {
    const stats = await countUsersAndAliases(c.var.deps.sql)
    c.header('Cache-Control', 'public, max-age=60')
    return c.json(stats)
  })
  .get('/domains', (c) => c.json({ domains: c.var.deps.config.mailDomains }))
