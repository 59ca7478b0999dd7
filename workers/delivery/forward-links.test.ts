// The signed links of every forward (issue 30), through the real MX, delivery worker and API:
// List-Unsubscribe (https + mailto) and List-Unsubscribe-Post replace the sender's own and are in
// the DKIM signature (dkimpy verifies it, and fails it once a link is altered); the one-click POST
// of RFC 8058, with no cookie, pauses the alias (or blocks the sender, as Settings say) once, and
// the dashboard can undo it; GET never acts; forged, expired and replayed tokens are refused, also
// when posted at once; the block link blocks the sender; the mailto acts at the MX.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signLinkToken, LINK_TOKEN_DAYS } from '../../lib/link-token.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dkimpyAvailable, dkimpyVerify } from '../../scripts/testing/dkimpy.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'

let env: MailEnv
let owner: ApiClient
let userId: string
let ownerEmail: string

beforeAll(async () => {
  env = await createMailEnv()
  owner = new ApiClient(env.app())
  ;({ user: { id: userId }, email: ownerEmail } = await owner.register())
}, 60_000)
afterAll(async () => {
  await env?.close()
})

const headerOf = (raw: Buffer, key: string) => splitMessage(raw).headers.filter((h) => h.key === key).map((h) => fieldValue(h).replace(/\r\n/g, '').trim())
const dkimRecords = () => Object.fromEntries(Object.entries(env.resolver.records)
  .filter(([name]) => name.includes('._domainkey.')).map(([name, [txt]]) => [name.slice(0, -' TXT'.length), (txt as string[]).join('')]))

async function newAlias(name: string) {
  const res = await owner.json(owner.post(`/api/aliases/${userId}`, { alias: `${name}-${crypto.randomUUID().slice(0, 6)}`, domain: 'veilmail.test', forwardTo: ownerEmail }))
  expect(res.status).toBe(201)
  return { id: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}

/** Sends a newsletter to the alias and waits for its forward; its links. */
async function forwardOf(to: string, from = 'News <news@letters.example>') {
  const subject = `letter ${crypto.randomUUID()}`
  const sent = await env.send({ to, from, subject, headers: { 'List-Unsubscribe': '<https://letters.example/unsub?u=alias>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } })
  expect(sent.response).toMatch(/^250 /)
  await expect.poll(() => env.relay.messages.some((m) => m.raw.includes(`Subject: ${subject}`)), { timeout: 20_000 }).toBe(true)
  const message = env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`))!
  const [list] = headerOf(message.raw, 'list-unsubscribe')
  const url = /<(https?:\/\/[^>]+)>/.exec(list)![1]
  const mailto = /<mailto:([^?>]+)\?subject=unsubscribe>/.exec(list)![1]
  const block = headerOf(message.raw, 'x-veilmail-block-sender')[0]
  return { message, list, url, path: new URL(url).pathname, mailto, blockPath: block ? new URL(block.slice(1, -1)).pathname : undefined }
}

/** What a mail provider's server sends (RFC 8058 §3.1): no cookie, no Origin of ours. */
const oneClick = (path: string, body = 'List-Unsubscribe=One-Click') =>
  new ApiClient(env.app()).request('POST', path, body, { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.provider.example' })
const aliasRow = async (id: string) => (await env.db.sql<{ active: boolean; forwardTo: string; lastForwardTo: string | null }[]>`select active, forward_to, last_forward_to from aliases where id = ${id}`)[0]
const events = async () => (await owner.json(owner.get('/api/unsubscribe-events'))).body.events as { id: string; aliasId: string; action: string; via: string; contact: string | null }[]

describe('links in forwards', () => {
  it.skipIf(!dkimpyAvailable())('carries our List-Unsubscribe (https and mailto), List-Unsubscribe-Post and the block link, in place of the sender\'s, inside the DKIM signature', async () => {
    const alias = await newAlias('letters')
    const { message, list, url, mailto, blockPath } = await forwardOf(alias.address)
    expect(headerOf(message.raw, 'list-unsubscribe')).toHaveLength(1)
    expect(list).not.toContain('letters.example')
    expect(url).toMatch(new RegExp(`^${env.config.publicUrl.replace(/\/$/, '')}/api/unsubscribe/[a-z2-7]{50}$`))
    expect(mailto).toMatch(/^unsubscribe\+[a-z2-7]{50}@veilmail\.test$/)
    expect(headerOf(message.raw, 'list-unsubscribe-post')).toEqual(['List-Unsubscribe=One-Click'])
    expect(blockPath).toMatch(/^\/api\/unsubscribe\/[a-z2-7]{50}$/)

    // RFC 8058 §4: the signature covers both fields; dkimpy agrees, and fails it once a link is changed
    const [signature] = headerOf(message.raw, 'dkim-signature')
    const signed = /(?:^|;)h=([^;]+)/.exec(signature.replace(/\s/g, ''))![1].split(':')
    expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'x-veilmail-block-sender']))
    expect(dkimpyVerify(message.raw, dkimRecords())).toBe(true)
    const altered = Buffer.from(message.raw.toString('latin1').replace(url, url.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))), 'latin1')
    expect(dkimpyVerify(altered, dkimRecords())).toBe(false)
  })

  it('pauses the alias on the one-click POST, once; GET never acts; forged and expired tokens and a wrong body are refused; Undo resumes it', async () => {
    const alias = await newAlias('oneclick')
    const { path } = await forwardOf(alias.address)

    // a link scanner's GET: sent to the confirmation page, nothing changes
    const get = await new ApiClient(env.app()).get(path)
    expect(get.status).toBe(302)
    expect(get.headers.get('location')).toBe(`/unsubscribe/${path.split('/').pop()}`)
    const details = await new ApiClient(env.app()).json(new ApiClient(env.app()).get(`${path}/details`))
    expect(details.body.link).toEqual({ status: 'ok', action: 'pause', alias: alias.address, contact: null })
    expect(await aliasRow(alias.id)).toMatchObject({ active: true, forwardTo: ownerEmail })

    expect((await oneClick(path, 'List-Unsubscribe=Please')).status).toBe(400)
    // forged: one letter changed, or a token signed with another key
    const token = path.split('/').pop()!
    const forged = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11)
    expect((await oneClick(`/api/unsubscribe/${forged}`)).status).toBe(404)
    const [{ contactId }] = await env.db.sql<{ contactId: string }[]>`select id as contact_id from reverse_aliases where alias_id = ${alias.id}`
    expect((await oneClick(`/api/unsubscribe/${signLinkToken('another secret key entirely', { purpose: 'unsubscribe', kind: 'contact', id: contactId })}`)).status).toBe(404)
    // expired: signed longer ago than a link lives
    const old = signLinkToken(env.config.secretKey, { purpose: 'unsubscribe', kind: 'contact', id: contactId }, new Date(Date.now() - (LINK_TOKEN_DAYS + 1) * 86_400_000))
    const expired = await oneClick(`/api/unsubscribe/${old}`)
    expect(expired.status).toBe(410)
    expect(await expired.json()).toEqual({ message: 'This link has expired' })
    expect(await aliasRow(alias.id)).toMatchObject({ active: true, forwardTo: ownerEmail })

    const done = await oneClick(path)
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({ message: 'Alias paused', action: 'pause', alias: alias.address, contact: null })
    expect(await aliasRow(alias.id)).toEqual({ active: false, forwardTo: 'null', lastForwardTo: ownerEmail })
    // replayed
    const replay = await oneClick(path)
    expect(replay.status).toBe(410)
    expect(await replay.json()).toEqual({ message: 'This link was used already' })

    // the dashboard says so, and Undo resumes the alias
    const event = (await events()).find((e) => e.aliasId === alias.id)!
    expect(event).toMatchObject({ action: 'pause', via: 'one-click', contact: null })
    const stranger = new ApiClient(env.app())
    await stranger.register()
    expect((await stranger.post(`/api/unsubscribe-events/${event.id}/undo`)).status).toBe(404)
    expect((await owner.json(owner.post(`/api/unsubscribe-events/${event.id}/undo`))).status).toBe(200)
    expect(await aliasRow(alias.id)).toMatchObject({ active: true, forwardTo: ownerEmail })
    expect((await events()).some((e) => e.id === event.id)).toBe(false)
    expect((await owner.post(`/api/unsubscribe-events/${event.id}/undo`)).status).toBe(404)
  })

  it('acts once when the same link is posted many times at once', async () => {
    const alias = await newAlias('race')
    const { path } = await forwardOf(alias.address)
    const answers = await Promise.all(Array.from({ length: 12 }, () => oneClick(path)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(11).fill(410)])
    expect((await events()).filter((e) => e.aliasId === alias.id)).toHaveLength(1)
  })

  it('blocks the sender with the block link, and with Unsubscribe when Settings say so; without the block link when it is off', async () => {
    const alias = await newAlias('blocker')
    const first = await forwardOf(alias.address, 'Spammy <spam@spammy.example>')
    expect((await oneClick(first.blockPath!)).status).toBe(200)
    expect((await env.send({ to: alias.address, from: 'spam@spammy.example', subject: 'again' }).catch((e: { response: string }) => e)).response).toMatch(/^550 5\.7\.1/)
    expect((await events()).find((e) => e.aliasId === alias.id)).toMatchObject({ action: 'block', via: 'one-click', contact: 'spam@spammy.example' })

    await owner.put('/api/sender-block-settings', { unsubscribeAction: 'block', blockedReply: 'refuse', blockLink: false })
    const second = await forwardOf(alias.address, 'Other <other@letters.example>')
    expect(second.blockPath).toBeUndefined()
    const done = await oneClick(second.path)
    expect(await done.json()).toMatchObject({ action: 'block', contact: 'other@letters.example' })
    expect(await aliasRow(alias.id)).toMatchObject({ active: true })
    const contacts = (await owner.json(owner.get(`/api/alias-contacts/${alias.id}`))).body.contacts as { address: string; blockedAt: string | null }[]
    expect(contacts.filter((c) => c.blockedAt).map((c) => c.address).sort()).toEqual(['other@letters.example', 'spam@spammy.example'])
    // Undo unblocks
    const event = (await events()).find((e) => e.contact === 'other@letters.example')!
    await owner.post(`/api/unsubscribe-events/${event.id}/undo`)
    expect((await env.send({ to: alias.address, from: 'other@letters.example', subject: 'welcome back' })).response).toMatch(/^250 /)
    await owner.put('/api/sender-block-settings', { unsubscribeAction: 'pause', blockedReply: 'refuse', blockLink: true })
  })

  it('acts on the unsubscribe mailto at the MX: once, and refuses a forged or replayed address', async () => {
    const alias = await newAlias('mailto')
    const { mailto } = await forwardOf(alias.address)
    const sent = await env.send({ to: mailto, from: ownerEmail, subject: 'unsubscribe' })
    expect(sent.response).toMatch(/^250 /)
    expect(await aliasRow(alias.id)).toMatchObject({ active: false, forwardTo: 'null' })
    expect((await events()).find((e) => e.aliasId === alias.id)).toMatchObject({ action: 'pause', via: 'mailto' })
    const replay = await env.send({ to: mailto, from: ownerEmail, subject: 'unsubscribe' }).catch((e: { response: string }) => e)
    expect(replay.response).toMatch(/^550 5\.7\.1 This unsubscribe address was used already/)
    const forged = mailto.replace(/\+(.)/, (_, c: string) => `+${c === 'a' ? 'b' : 'a'}`)
    expect((await env.send({ to: forged, from: ownerEmail, subject: 'unsubscribe' }).catch((e: { response: string }) => e)).response).toMatch(/^550 5\.1\.1/)
  })
})
