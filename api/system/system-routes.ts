// Health and public figures: GET /api/health, GET /api/stats, GET /api/domains (signed in: with
// the account's custom domains, issue 29).
import { Hono } from 'hono'
import type { AppEnv } from '../context.ts'
import { countUsersAndAliases } from '../../db/stats.ts'
import { listProcessHealth } from '../../db/process-heartbeats.ts'
import { HEARTBEAT_STALE_SECONDS, MONITORED_PROCESSES } from '../../db/heartbeat.ts'
import { listCustomDomains } from '../../db/custom-domains.ts'
import { sessionUser } from '../auth/session.ts'
import { domainView } from '../domains/domain-view.ts'

export const systemRoutes = new Hono<AppEnv>()
  .get('/health', async (c) => {
    const { sql, boss } = c.var.deps
    const [db, queue, beats] = await Promise.all([
      sql`select 1`.then(() => true, () => false),
      boss.getQueues().then(() => true, () => false),
      listProcessHealth(sql, MONITORED_PROCESSES, HEARTBEAT_STALE_SECONDS).catch(() => []),
    ])
    // `ok` is this web process's own health (load balancers route on it); a dead worker shows
    // under `processes` without taking the web out of rotation.
    const ok = db && queue
    const processes = Object.fromEntries(MONITORED_PROCESSES.map((name) => {
      const beat = beats.find((b) => b.process === name)
      return [name, { alive: beat?.alive ?? false, instances: beat?.instances ?? 0, lastBeatAt: beat?.lastBeatAt?.toISOString() ?? null }]
    }))
    return c.json({ ok, db, queue, processes }, ok ? 200 : 503)
  })
  .get('/stats', async (c) => {
    const stats = await countUsersAndAliases(c.var.deps.sql)
    c.header('Cache-Control', 'public, max-age=60')
    return c.json(stats)
  })
  // `domains`: where aliases can be made (ours, and the account's active domains); signed in,
  // `customDomains` lists the account's own with their records (Settings → Domains).
  .get('/domains', async (c) => {
    const { sql, config } = c.var.deps
    const user = await sessionUser(c)
    if (!user) return c.json({ domains: config.mailDomains })
    const own = await listCustomDomains(sql, user.id)
    const active = own.filter((d) => d.status === 'active').map((d) => d.domain)
    return c.json({ domains: [...config.mailDomains, ...active], customDomains: own.map((r) => domainView(config, r)) })
  })
