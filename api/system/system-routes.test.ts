import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { startHeartbeat } from '../../db/heartbeat.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ MAIL_DOMAINS: 'veilmail.test,veil.test,alias.example' })
})
afterAll(() => t.close())

describe('system routes', () => {
  it('reports health of the database and the queue, and each process from its heartbeat', async () => {
    const res = await t.app.request('/api/health')
    expect(res.status).toBe(200)
    const dead = { alive: false, instances: 0, lastBeatAt: null }
    expect(await res.json()).toEqual({ ok: true, db: true, queue: true, processes: { web: dead, mx: dead, delivery: dead, submission: dead, sync: dead } })

    // a running process beats; one that stopped beating a while ago (killed) is reported dead
    const stop = startHeartbeat(t.db.sql, 'delivery')
    const stopSync = startHeartbeat(t.db.sql, 'sync')
    await t.db.sql`insert into process_heartbeats (process, instance, beat_at) values ('mx', 'gone:1', now() - interval '1 minute')`
    const health = async () => (await t.app.request('/api/health')).json()
    // each heartbeat's first beat is its own insert, not awaited by startHeartbeat
    await expect.poll(async () => { const { delivery, sync } = (await health()).processes; return [delivery.alive, sync.alive] }).toEqual([true, true])
    const body = await health()
    expect(body.processes.delivery).toMatchObject({ alive: true, instances: 1 })
    expect(body.processes.mx).toMatchObject({ alive: false, instances: 0, lastBeatAt: expect.any(String) })
    expect(body.processes.sync).toMatchObject({ alive: true, instances: 1 })
    expect(body.processes.web.alive).toBe(false)
    await stop()
    await stopSync()
    expect((await health()).processes).toMatchObject({ delivery: dead, sync: dead })
  })

  it('counts real users and aliases, and lists the configured domains', async () => {
    const before = await (await t.app.request('/api/stats')).json()
    const client = new ApiClient(t.app)
    const { user } = await client.register()
    await t.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'stats-test', 'veilmail.test', 'x@example.com')`
    const after = await (await t.app.request('/api/stats')).json()
    expect(after).toEqual({ totalUsers: before.totalUsers + 1, totalAliases: before.totalAliases + 1 })
    expect(await (await t.app.request('/api/domains')).json()).toEqual({ domains: ['veilmail.test', 'veil.test', 'alias.example'] })
  })

  it('puts security headers on every response', async () => {
    for (const path of ['/api/health', '/api/nope', '/', '/dashboard']) {
      const res = await t.app.request(path)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      const csp = res.headers.get('content-security-policy')!
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("script-src 'self'")
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})

describe('the built web app', () => {
  it('serves index.html for app routes, 404 with the app for anything else', async () => {
    for (const path of ['/', '/home', '/auth', '/dashboard', '/inbox/settings', '/inbox/3f2a0d1e-0000-4000-8000-000000000000', '/transparency']) {
      const res = await t.app.request(path)
      expect(`${path} ${res.status}`).toBe(`${path} 200`)
      expect(res.headers.get('content-type')).toMatch(/text\/html/)
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toContain('<div id="root">')
    }
    const missing = await t.app.request('/no/such/page')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('<div id="root">')
  })

  it('caches hashed assets for a year', async () => {
    const html = await (await t.app.request('/')).text()
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    const res = await t.app.request(script!)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('content-type')).toMatch(/javascript/)
    expect((await t.app.request('/assets/../../package.json')).headers.get('content-type')).toMatch(/text\/html/)
  })
})
