// Blocked senders (issue 30) through the real MX, delivery worker and API: a forward makes the
// sender a contact (listed with its forwards and last mail); blocked, its mail to that alias is
// refused 550 5.7.1 (or, with "drop silently", accepted and dropped) and counted; other senders
// and other aliases still get through; unblocked, it is forwarded again. Another user's alias
// or contact answers 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'

let env: MailEnv
let owner: ApiClient
let stranger: ApiClient
let userId: string
let ownerEmail: string

beforeAll(async () => {
  env = await createMailEnv()
  owner = new ApiClient(env.app())
  stranger = new ApiClient(env.app())
  ;({ user: { id: userId }, email: ownerEmail } = await owner.register())
  await stranger.register()
}, 60_000)
afterAll(async () => {
  await env?.close()
})

async function newAlias(name: string) {
  const res = await owner.json(owner.post(`/api/aliases/${userId}`, { alias: `${name}-${crypto.randomUUID().slice(0, 6)}`, domain: 'veilmail.test', forwardTo: ownerEmail }))
  expect(res.status).toBe(201)
  return { id: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}
const forwarded = (subject: string) => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).length
const contacts = async (aliasId: string, client = owner) => client.json(client.get(`/api/alias-contacts/${aliasId}`))
const send = (to: string, subject: string, from = 'Pushy Shop <deals@pushy.example>') =>
  env.send({ to, subject, from, envelopeFrom: `bounce-${crypto.randomUUID().slice(0, 8)}@mailer.pushy.example` }).catch((error: { response?: string }) => ({ response: error.response ?? String(error), accepted: [] }))

describe('blocked senders', () => {
  it('refuses a blocked contact with 550 5.7.1 and counts it; others still get through; unblocked it is forwarded again', async () => {
    const alias = await newAlias('shop')
    const other = await newAlias('other')
    const first = `first ${crypto.randomUUID()}`
    await send(alias.address, first)
    await expect.poll(() => forwarded(first), { timeout: 20_000 }).toBe(1)

    // the sender is a contact, with its forward counted and dated
    await expect.poll(async () => (await contacts(alias.id)).body.contacts[0]?.forwarded ?? 0).toBe(1)
    const [contact] = (await contacts(alias.id)).body.contacts
    expect(contact).toMatchObject({ address: 'deals@pushy.example', name: 'Pushy Shop', forwarded: 1, blocked: 0, blockedAt: null })
    expect(Date.parse(contact.lastMailAt)).not.toBeNaN()
    expect(Date.parse(contact.firstMailAt)).not.toBeNaN()

    // another user can neither list nor block it
    expect((await contacts(alias.id, stranger)).status).toBe(404)
    expect((await stranger.patch(`/api/alias-contacts/${alias.id}/${contact.id}`, { blocked: true })).status).toBe(404)
    expect((await owner.patch(`/api/alias-contacts/${other.id}/${contact.id}`, { blocked: true })).status).toBe(404)
    expect((await owner.json(owner.patch(`/api/alias-contacts/${alias.id}/${contact.id}`, { blocked: 'yes' }))).status).toBe(400)

    const blocked = await owner.json(owner.patch(`/api/alias-contacts/${alias.id}/${contact.id}`, { blocked: true }))
    expect(blocked.status).toBe(200)
    expect(Date.parse(blocked.body.contact.blockedAt)).not.toBeNaN()

    // the From decides, whatever the envelope sender and however the address is spelled
    const refused = await send(alias.address, `blocked ${crypto.randomUUID()}`, '"Someone else" <DEALS@Pushy.Example>')
    expect(refused.response).toMatch(/^550 5\.7\.1/)
    expect((await contacts(alias.id)).body.contacts[0]).toMatchObject({ blocked: 1, forwarded: 1 })

    // another sender to the same alias, and the same sender to another alias, still get through
    const friend = `friend ${crypto.randomUUID()}`
    expect((await send(alias.address, friend, 'friend@outside.example')).response).toMatch(/^250 /)
    const elsewhere = `elsewhere ${crypto.randomUUID()}`
    expect((await send(other.address, elsewhere)).response).toMatch(/^250 /)
    await expect.poll(() => forwarded(friend) + forwarded(elsewhere), { timeout: 20_000 }).toBe(2)

    // to a blocking alias and a non-blocking one at once: accepted (one answer for both), forwarded to the other only
    const both = `both ${crypto.randomUUID()}`
    expect((await env.send({ to: [alias.address, other.address], subject: both, from: 'deals@pushy.example' })).response).toMatch(/^250 /)
    await expect.poll(() => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${both}`)).length, { timeout: 20_000 }).toBe(1)
    expect((await contacts(alias.id)).body.contacts.find((c: { id: string }) => c.id === contact.id)).toMatchObject({ blocked: 2 })

    const unblocked = await owner.json(owner.patch(`/api/alias-contacts/${alias.id}/${contact.id}`, { blocked: false }))
    expect(unblocked.body.contact.blockedAt).toBeNull()
    const again = `again ${crypto.randomUUID()}`
    expect((await send(alias.address, again)).response).toMatch(/^250 /)
    await expect.poll(() => forwarded(again), { timeout: 20_000 }).toBe(1)
  })

  it('with "drop silently" a blocked sender hears 250, and the message is dropped unread and counted', async () => {
    const alias = await newAlias('quiet')
    const first = `quiet first ${crypto.randomUUID()}`
    await send(alias.address, first)
    await expect.poll(() => forwarded(first), { timeout: 20_000 }).toBe(1)
    await expect.poll(async () => (await contacts(alias.id)).body.contacts.length).toBe(1)
    const [contact] = (await contacts(alias.id)).body.contacts
    await owner.patch(`/api/alias-contacts/${alias.id}/${contact.id}`, { blocked: true })

    expect((await owner.json(owner.put('/api/sender-block-settings', { unsubscribeAction: 'pause', blockedReply: 'sometimes', blockLink: true }))).status).toBe(400)
    expect((await owner.json(owner.put('/api/sender-block-settings', { unsubscribeAction: 'pause', blockedReply: 'drop', blockLink: true }))).status).toBe(200)
    expect((await owner.json(owner.get('/api/sender-block-settings'))).body.settings).toEqual({ unsubscribeAction: 'pause', blockedReply: 'drop', blockLink: true })
    // another user's settings are their own
    expect((await stranger.json(stranger.get('/api/sender-block-settings'))).body.settings.blockedReply).toBe('refuse')

    const dropped = `dropped ${crypto.randomUUID()}`
    expect((await send(alias.address, dropped)).response).toMatch(/^250 /)
    expect((await contacts(alias.id)).body.contacts[0]).toMatchObject({ blocked: 1, forwarded: 1 })
    // nothing was spooled for it: no delivery waits, and the relay never sees it
    expect((await env.db.sql`select 1 from deliveries where alias_id = ${alias.id} and status = 'pending'`).length).toBe(0)
    expect(forwarded(dropped)).toBe(0)
    await owner.put('/api/sender-block-settings', { unsubscribeAction: 'pause', blockedReply: 'refuse', blockLink: true })
  })

  it('counts every message of blocked senders arriving at once', async () => {
    const alias = await newAlias('busy')
    const first = `busy first ${crypto.randomUUID()}`
    await send(alias.address, first)
    await expect.poll(() => forwarded(first), { timeout: 20_000 }).toBe(1)
    await expect.poll(async () => (await contacts(alias.id)).body.contacts.length).toBe(1)
    const [contact] = (await contacts(alias.id)).body.contacts
    await owner.patch(`/api/alias-contacts/${alias.id}/${contact.id}`, { blocked: true })
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => send(alias.address, `flood ${i}`)))
    expect(replies.every((r) => /^550 5\.7\.1/.test(r.response))).toBe(true)
    expect((await contacts(alias.id)).body.contacts[0]).toMatchObject({ blocked: 12 })
  })
})
