// Bounce routes (issue 30) against the real MX, delivery worker and relay stand-in: the threshold
// setting marks a target sooner, "Send a test mail" refused keeps the mark and taken lifts it (the
// held forward then leaves), Re-enable, the dashboard's notices and their Dismiss; another user's
// target or notice answers 404, bad input 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv()
})
afterAll(async () => {
  await env?.close()
})

async function owner(target: string) {
  const api = new ApiClient(env.app())
  const { user } = await api.register()
  const res = await api.json(api.post(`/api/aliases/${user.id}`, { alias: `r${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target }))
  await api.confirmForwardTarget(target)
  return { api, userId: user.id as string, aliasId: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}
const targetOf = async (api: ApiClient, email: string) =>
  ((await api.json(api.get('/api/forward-targets'))).body.targets as { email: string; disabled: boolean; bounces: number; held: number; lastBounce: { code: number; reason: string } | null }[]).find((t) => t.email === email)
const forwardsTo = (target: string) => env.relay.messages.filter((m) => m.to.includes(target) && m.from !== 'no-reply@veilmail.test')

describe('bounce routes', () => {
  it('a threshold of 2 marks after two bounces; a refused test mail keeps the mark, a taken one lifts it and the held forward leaves', async () => {
    const target = `t-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const o = await owner(target)
    expect((await o.api.json(o.api.put('/api/bounces', { threshold: 2 }))).body).toMatchObject({ threshold: 2 })
    env.relay.refuse.set(target, 550)
    for (const i of [1, 2]) await env.send({ to: o.address, subject: `Bounce ${i}` })
    await expect.poll(async () => (await targetOf(o.api, target))?.disabled, { timeout: 30_000 }).toBe(true)
    expect(await targetOf(o.api, target)).toMatchObject({ bounces: 2, lastBounce: { code: 550, reason: `550 5.1.1 <${target}>: mailbox unavailable` } })
    await env.send({ to: o.address, subject: 'Held while stopped' })
    await expect.poll(async () => (await targetOf(o.api, target))?.held, { timeout: 30_000 }).toBe(1)

    const refused = await o.api.json(o.api.post('/api/forward-targets/test', { email: target }))
    expect(refused.status).toBe(200)
    expect(refused.body).toMatchObject({ delivered: false, code: 550 })
    expect(refused.body.message).toContain('mailbox unavailable')
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: true, held: 1 })

    env.relay.refuse.delete(target)
    const taken = await o.api.json(o.api.post('/api/forward-targets/test', { email: target }))
    expect(taken.body).toMatchObject({ delivered: true })
    expect(env.relay.messages.some((m) => m.to.includes(target) && m.raw.toString().includes('Subject: Veilmail test mail'))).toBe(true)
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: false, bounces: 0 })
    await expect.poll(() => forwardsTo(target).length, { timeout: 30_000 }).toBe(1)
    expect(forwardsTo(target)[0].raw.toString()).toContain('Held while stopped')
  }, 90_000)

  it('Re-enable lifts the mark and releases the held forwards; notices list and dismiss; others get 404, bad input 400', async () => {
    const target = `e-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const o = await owner(target)
    await o.api.put('/api/bounces', { threshold: 1 })
    env.relay.refuse.set(target, 554)
    await env.send({ to: o.address, subject: 'Bounce once' })
    await expect.poll(async () => (await targetOf(o.api, target))?.disabled, { timeout: 30_000 }).toBe(true)
    env.relay.refuse.delete(target)
    await env.send({ to: o.address, subject: 'Held until re-enabled' })
    await expect.poll(async () => (await targetOf(o.api, target))?.held, { timeout: 30_000 }).toBe(1)

    const other = await owner(`x-${crypto.randomUUID().slice(0, 6)}@mailbox.example`)
    expect((await other.api.post('/api/forward-targets/enable', { email: target })).status).toBe(404)
    expect((await other.api.post('/api/forward-targets/test', { email: target })).status).toBe(404)
    for (const bad of [{ email: 'not an address' }, { email: `${target}\r\nRCPT TO:<victim@example.org>` }, {}]) {
      expect((await o.api.post('/api/forward-targets/test', bad)).status).toBe(400)
    }
    for (const threshold of [0, 101, 2.5, '5', null]) expect((await o.api.put('/api/bounces', { threshold })).status).toBe(400)

    expect((await o.api.json(o.api.post('/api/forward-targets/enable', { email: target.toUpperCase() }))).status).toBe(200)
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: false, bounces: 0 })
    await expect.poll(() => forwardsTo(target).length, { timeout: 30_000 }).toBe(1)

    await expect.poll(async () => (await o.api.json(o.api.get('/api/bounces'))).body.notices.length, { timeout: 30_000 }).toBe(1)
    const { notices, threshold } = (await o.api.json(o.api.get('/api/bounces'))).body
    expect(threshold).toBe(1)
    expect(notices[0].entries).toEqual([{ alias: o.address, target, code: 554, reason: `554 5.1.1 <${target}>: mailbox unavailable`, count: 1, disabled: true }])
    expect((await other.api.delete(`/api/bounces/${notices[0].id}`)).status).toBe(404)
    expect((await o.api.delete(`/api/bounces/${notices[0].id}`)).status).toBe(200)
    expect((await o.api.json(o.api.get('/api/bounces'))).body.notices).toEqual([])
  }, 90_000)
})
