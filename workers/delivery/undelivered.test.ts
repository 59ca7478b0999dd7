// Forwards that fail for good, end to end: the relay's 550 leaves an undelivered row whose copy
// decrypts with the owner's key (our code and Debian's `age`), Retry through the API delivers it
// once the relay accepts again, Delete removes it; without a key only the failure is reported.
import { generateX25519Identity, identityToRecipient } from 'age-encryption'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptArmored } from '../../shared/age-core.ts'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { ageAvailable, ageDecrypt } from '../../scripts/testing/age-cli.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { abandonForwardEmail } from './forward-email.ts'
import { splitMessage } from '../../lib/raw-message.ts'

const cli = ageAvailable()
let env: MailEnv
let api: ApiClient
let userId: string
let identity: string
beforeAll(async () => {
  env = await createMailEnv()
  api = new ApiClient(env.app())
  userId = (await api.register()).user.id
  identity = await generateX25519Identity()
  await env.db.sql`insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name, is_default)
    values (${userId}, ${await identityToRecipient(identity)}, 'locked elsewhere', 'mail key', true)`
})
afterAll(async () => {
  await env?.close()
})

const ARMOR = /-----BEGIN AGE ENCRYPTED FILE-----[\s\S]+?-----END AGE ENCRYPTED FILE-----/
const spoolCount = async () => (await env.db.sql`select count(*)::int as n from spool_messages`)[0].n as number
const rowsOf = (aliasId: string) => env.db.sql<{ id: string; target: string; reason: string; encrypted: string | null; status: string }[]>`
  select id, target, reason, encrypted, status from undelivered_messages where alias_id = ${aliasId}`
const listed = async () => (await api.json(api.get('/api/undelivered'))).body.undelivered as { id: string; alias: string; status: string; kept: boolean; reason: string; target: string }[]

async function aliasOf(owner: string | undefined, target: string) {
  if (!owner) return env.createAlias(target)
  const res = await api.json(api.post(`/api/aliases/${owner}`, { alias: `a${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target }))
  const [known] = await env.db.sql`select confirmed_at from forward_targets where user_id = ${owner} and email = ${target}`
  if (!known?.confirmedAt) await api.confirmForwardTarget(target) // the link mailed to the new target
  return { id: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}

/** Sends one message while the relay refuses every recipient with 550; resolves once it is recorded. */
async function refused(aliasId: string, address: string, subject: string, text: string) {
  env.relay.rejectRcpt = 550
  try {
    await env.send({ to: address, subject, text })
    await expect.poll(async () => (await rowsOf(aliasId)).length).toBeGreaterThan(0)
  } finally {
    env.relay.rejectRcpt = undefined
  }
  return (await rowsOf(aliasId))[0]
}

describe('undelivered mail', () => {
  it('keeps a refused forward encrypted, sends it again on Retry, and counts it', async () => {
    const alias = await aliasOf(userId, 'full@mailbox.example')
    const row = await refused(alias.id, alias.address, 'Quarterly numbers', 'The numbers are up 12% kept-1')
    expect(row).toMatchObject({ target: 'full@mailbox.example', status: 'kept', reason: expect.stringMatching(/^550 5\.1\.1 rejected by test relay/) })
    expect(row.encrypted).toMatch(ARMOR)
    expect(row.encrypted).not.toContain('numbers')
    await expect.poll(spoolCount).toBe(0)
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ forwarded: 0, failed: 1 })

    // only the owner's key opens it: a readable copy first, then the original
    const payload = await decryptArmored(row.encrypted!, identity)
    expect(payload).toContain('Subject: Quarterly numbers')
    expect(payload).toContain('The numbers are up 12% kept-1')
    expect(payload).toContain('Content-Type: message/rfc822')
    if (cli) expect(await ageDecrypt(row.encrypted!, identity)).toBe(payload)

    expect(await listed()).toMatchObject([{ id: row.id, alias: alias.address, target: 'full@mailbox.example', kept: true, status: 'kept', reason: row.reason }])

    // a retry the relay refuses again goes back on the list
    env.relay.rejectRcpt = 550
    try {
      expect((await api.json(api.post(`/api/undelivered/${row.id}/retry`))).status).toBe(202)
      await expect.poll(async () => (await rowsOf(alias.id))[0]?.status).toBe('kept')
    } finally {
      env.relay.rejectRcpt = undefined
    }
    // the relay has recovered: Retry delivers the encrypted copy to the target, and the row goes
    const retry = await api.json(api.post(`/api/undelivered/${row.id}/retry`))
    expect(retry.status).toBe(202)
    expect(retry.body.undelivered).toMatchObject({ id: row.id, status: 'retrying' })
    expect([404, 409]).toContain((await api.post(`/api/undelivered/${row.id}/retry`)).status) // queued already, or done
    const sent = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes(`undelivered-${row.id}`)))
    expect(sent.to).toEqual(['full@mailbox.example'])
    expect(sent.from).toMatch(/^SRS0=.+@veilmail\.test$/)
    const body = splitMessage(sent.raw).body.toString('latin1')
    expect(body).not.toContain('numbers')
    expect(await decryptArmored(body, identity)).toBe(payload)
    await expect.poll(async () => (await rowsOf(alias.id)).length).toBe(0)
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ forwarded: 1, failed: 1 })
    expect((await api.json(api.post(`/api/undelivered/${row.id}/retry`))).status).toBe(404)
  })

  it('deletes a kept message for good', async () => {
    const alias = await aliasOf(userId, 'gone@mailbox.example')
    const row = await refused(alias.id, alias.address, 'To delete', 'delete me kept-2')
    const other = new ApiClient(env.app())
    await other.register()
    expect((await other.delete(`/api/undelivered/${row.id}`)).status).toBe(404)
    expect((await api.json(api.delete(`/api/undelivered/${row.id}`))).body.message).toBe('Undelivered message deleted')
    expect(await rowsOf(alias.id)).toEqual([])
    expect((await api.delete(`/api/undelivered/${row.id}`)).status).toBe(404)
  })

  it('keeps a forward the queue gave up on, with the last error as the reason', async () => {
    const alias = await aliasOf(userId, 'later@mailbox.example')
    await env.relayDown()
    try {
      await env.send({ to: alias.address, subject: 'Never arrives', text: 'patience kept-3' })
      const attempted = async () => (await env.db.sql`select id, attempts from deliveries where alias_id = ${alias.id}`)[0]
      await expect.poll(async () => (await attempted())?.attempts ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(1)
      // what the dead-letter queue's consumer runs when the job is out of retries
      await abandonForwardEmail(env.deps, (await attempted()).id)
    } finally {
      await env.relayUp()
    }
    const [row] = await rowsOf(alias.id)
    expect(row.reason).toMatch(/^No delivery after \d+ attempts \(last error: [A-Z]+\)$/)
    expect(await decryptArmored(row.encrypted!, identity)).toContain('patience kept-3')
    await expect.poll(spoolCount).toBe(0)
  })

  it('without a key only reports the failure: counter and reason, no content, no Retry', async () => {
    const alias = await aliasOf(undefined, 'nokey@mailbox.example')
    const row = await refused(alias.id, alias.address, 'No key here', 'not kept kept-4')
    expect(row).toMatchObject({ target: 'nokey@mailbox.example', encrypted: null, reason: expect.stringMatching(/^550 /) })
    expect(JSON.stringify(await env.db.sql`select * from undelivered_messages where id = ${row.id}`)).not.toContain('kept-4')
    await expect.poll(spoolCount).toBe(0)
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ failed: 1 })
  })

  it('answers Retry of a report without a copy with 409', async () => {
    const alias = await aliasOf(userId, 'report@mailbox.example')
    const [row] = await env.db.sql<{ id: string }[]>`
      insert into undelivered_messages (user_id, alias_id, target, reason) values (${userId}, ${alias.id}, 'report@mailbox.example', '550 no') returning id`
    const res = await api.json(api.post(`/api/undelivered/${row.id}/retry`))
    expect(res).toMatchObject({ status: 409, body: { message: 'No copy of this message was kept, so it cannot be sent again.' } })
    expect((await listed()).find((u) => u.id === row.id)).toMatchObject({ kept: false, status: 'kept' })
  })
})
