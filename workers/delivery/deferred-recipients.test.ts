// A recipient deferred (RCPT 4xx) while the others took the mail is retried alone
// (deferred-recipients.ts); what changes between the first attempt and its retry: the sending
// alias deleted or paused, the relay not answering. The mail ends sent naming the one it missed
// with the reason, never failed, and is never sent again to those who have it. Real database,
// real delivery worker, the smtp-server relay stand-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '../../scripts/testing/api-client.ts'
import { composeSender } from '../../scripts/testing/compose-sender.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'

let env: MailEnv

beforeAll(async () => {
  env = await createMailEnv({ env: { UNDO_SECONDS: '0', EMAIL_RETRY_DELAY_SECONDS: '1' } })
}, 60_000)
afterAll(() => env.close())

/** A new user's alias and a mail from it to ann (an address of its own) and bob, bob deferred (451) by the relay until `env.relay.refuse` is cleared. */
async function partlySent() {
  const { api, aliasId, compose } = await composeSender(env.app(), 'deferred')
  const subject = `deferred ${crypto.randomUUID()}`
  const ann = `ann-${crypto.randomUUID().slice(0, 8)}@example.org`
  env.relay.refuse.set('bob@example.net', 451)
  const { body } = await compose({ to: `${ann}, bob@example.net`, subject, body: 'Hi both' })
  const jobId = body.jobId as string
  const status = async () => (await api.json(api.get(`/api/email-jobs/${jobId}/status`))).body
  await expect.poll(status, { timeout: 20_000 }).toMatchObject({
    status: 'retrying', messageId: `<${jobId}@veilmail.test>`,
    lastError: 'Sent to 1 of 2; retrying bob@example.net (server said 451 5.1.1 <bob@example.net>: mailbox unavailable)',
  })
  const copies = () => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to)
  const asked = (address: string) => env.relay.rcpts.filter((a) => a === address).length
  return { ann, api, aliasId, jobId, status, copies, asked }
}

describe('a retry of deferred recipients', () => {
  const deleted = (api: ApiClient, aliasId: string) => api.delete(`/api/aliases/${aliasId}`)
  const paused = (api: ApiClient, aliasId: string) => api.patch(`/api/aliases/${aliasId}/toggle`, { active: false })
  it.each([
    ['deleted', deleted, 'The sending alias or mailbox was removed'],
    ['paused', paused, 'The sending alias is paused'],
  ] as const)('whose alias was %s since the first attempt ends sent naming the deferred one, and ann is not sent it again', async (_, change, reason) => {
    const mail = await partlySent()
    try {
      expect((await mail.api.json(change(mail.api, mail.aliasId))).status).toBe(200)
      await expect.poll(mail.status, { timeout: 20_000 }).toMatchObject({
        status: 'sent', messageId: `<${mail.jobId}@veilmail.test>`, lastError: `Sent, but not delivered to bob@example.net (${reason})`,
      })
    } finally {
      env.relay.refuse.clear()
    }
    expect(mail.copies()).toEqual([[mail.ann]])
    expect(mail.asked(mail.ann)).toBe(1)
  })

  it('of a mail nobody has yet (one 550, one 451), whose alias was paused since, ends failed naming both with their reasons', async () => {
    const { api, aliasId, compose } = await composeSender(env.app(), 'mixed')
    env.relay.refuse.set('never@example.org', 550).set('soon@example.net', 451)
    try {
      const { body } = await compose({ to: 'never@example.org, soon@example.net' })
      const status = async () => (await api.json(api.get(`/api/email-jobs/${body.jobId}/status`))).body
      await expect.poll(status, { timeout: 20_000 }).toMatchObject({ status: 'retrying', messageId: null, lastError: expect.stringMatching(/^Retrying soon@example\.net .*; not delivered to never@example\.org/) })
      await paused(api, aliasId)
      await expect.poll(status, { timeout: 20_000 }).toMatchObject({
        status: 'failed', messageId: null,
        lastError: 'Not delivered to never@example.org (550 5.1.1 <never@example.org>: mailbox unavailable); soon@example.net (The sending alias is paused)',
      })
    } finally {
      env.relay.refuse.clear()
    }
    expect(env.relay.rcpts.filter((a) => a === 'never@example.org')).toHaveLength(1)
  })

  it('that cannot reach the relay is tried again later, to the deferred one alone', async () => {
    const mail = await partlySent()
    await env.relayDown()
    try {
      await expect.poll(mail.status, { timeout: 20_000 }).toMatchObject({
        status: 'retrying', messageId: `<${mail.jobId}@veilmail.test>`, lastError: 'Sent to 1 of 2; retrying bob@example.net (The mail relay could not be reached)',
      })
    } finally {
      await env.relayUp() // a new relay stand-in on the same port: it takes bob now
    }
    await waitFor(env.relay, 'message', () => mail.copies().length > 0)
    await expect.poll(mail.status, { timeout: 20_000 }).toMatchObject({ status: 'sent', lastError: null, messageId: `<${mail.jobId}@veilmail.test>` })
    // the new stand-in saw this mail once, to bob alone
    expect(mail.copies()).toEqual([['bob@example.net']])
    expect(mail.asked(mail.ann)).toBe(0)
  })

  it('whose relay stays unreachable until the retries run out ends sent naming the deferred one, not failed', async () => {
    const mail = await partlySent()
    await env.relayDown()
    try {
      await expect.poll(mail.status, { timeout: 60_000, interval: 500 }).toMatchObject({
        status: 'sent', currentRetries: 5, messageId: `<${mail.jobId}@veilmail.test>`, lastError: 'Sent, but not delivered to bob@example.net (The mail relay could not be reached)',
      })
    } finally {
      await env.relayUp()
    }
    expect(mail.copies()).toEqual([]) // the new stand-in: not sent since
  }, 90_000)
})
