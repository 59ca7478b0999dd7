import { generateKeyPairSync } from 'node:crypto'
import { dkimVerify } from 'mailauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { dkimRecordFor } from '../../lib/dkim-keys.ts'
import { verifyWebhook } from '../../lib/webhook-signature.ts'
import { dkimpyArcSign, dkimpyArcVerify, dkimpyAvailable } from '../../scripts/testing/dkimpy.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv()
})
afterAll(async () => {
  await env?.close()
})

const headerOf = (raw: Buffer, key: string) => splitMessage(raw).headers.filter((h) => h.key === key).map(fieldValue)
const relayedTo = (address: string, marker: string) => () => env.relay.messages.find((m) => m.to.includes(address) && m.raw.includes(marker))
const spoolCount = async () => (await env.db.sql`select count(*)::int as n from spool_messages`)[0].n as number

describe('forwarding', () => {
  it('forwards one message to two mailboxes and a webhook, rewritten, signed and then forgotten', async () => {
    const alias = await env.createAlias(`first@mailbox.example, second@mailbox.example, ${env.webhooks.url}`)
    const body = 'Body line one\r\nBody line two =E2=9C=93 stays as sent\r\n'
    const raw = [
      'From: "Ada Lovelace" <ada@outside.example>', `To: ${alias.address}, Bob <bob@elsewhere.example>`, 'Subject: Analytical engine',
      'Message-ID: <engine-1@outside.example>', 'Date: Mon, 01 Jan 2024 10:00:00 +0000', 'DKIM-Signature: v=1; d=outside.example; b=stale',
      'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', body,
    ].join('\r\n')
    const sent = await env.send({ envelopeFrom: 'ada@outside.example', to: alias.address, raw })
    expect(sent.response).toMatch(/^250 /)

    const first = await waitFor(env.relay, 'message', relayedTo('first@mailbox.example', 'engine-1'))
    const second = await waitFor(env.relay, 'message', relayedTo('second@mailbox.example', 'engine-1'))
    const hook = await waitFor(env.webhooks, 'request', () => env.webhooks.requests.find((r) => r.body.includes('engine-1')))

    for (const message of [first, second]) {
      // SRS envelope sender on the alias domain
      expect(message.from).toMatch(/^SRS0=[a-z2-7]{8}=[a-z2-7]{12}=outside\.example=ada@veilmail\.test$/)
      const { body: forwardedBody } = splitMessage(message.raw)
      expect(forwardedBody.toString('latin1')).toBe(body)
      const [from] = headerOf(message.raw, 'from')
      expect(from).toMatch(/^"Ada Lovelace <ada@outside\.example> via Veilmail" <re\+[a-z2-7]{32}@veilmail\.test>$/)
      const [replyTo] = headerOf(message.raw, 'reply-to')
      expect(replyTo).toBe(from.match(/<(re\+[^>]+)>$/)![1])
      const [to] = headerOf(message.raw, 'to')
      expect(to).toContain(alias.address)
      expect(to).toMatch(/"Bob <bob@elsewhere\.example>" <re\+[a-z2-7]{32}@veilmail\.test>/)
      expect(headerOf(message.raw, 'message-id')).toEqual(['<engine-1@outside.example>'])
      expect(headerOf(message.raw, 'authentication-results')[0]).toMatch(/^mx\.veilmail\.test;/)
      expect(headerOf(message.raw, 'received')[0]).toMatch(/by mx\.veilmail\.test with ESMTPS id/) // the client used STARTTLS
      // our signature only, and it verifies
      const signatures = headerOf(message.raw, 'dkim-signature')
      expect(signatures).toHaveLength(1)
      const verified = await dkimVerify(message.raw, { resolver: env.resolver })
      expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['veilmail.test', 'pass']])
    }

    expect(verifyWebhook(alias.webhookSecret, hook.headers, hook.body)).toBe(true)
    const payload = JSON.parse(hook.body)
    expect(payload.type).toBe('email.received')
    expect(payload.data).toMatchObject({
      alias: alias.address,
      envelope: { from: 'ada@outside.example', to: [alias.address] },
      from: [{ address: 'ada@outside.example', name: 'Ada Lovelace' }],
      subject: 'Analytical engine',
      messageId: '<engine-1@outside.example>',
      date: '2024-01-01T10:00:00.000Z',
      authentication: { spf: 'none', dkim: expect.any(String), dmarc: 'none' },
    })
    expect(payload.data.text).toContain('stays as sent')

    await expect.poll(spoolCount).toBe(0)
    const counters = await getAliasCounters(env.db.sql, [alias.id])
    expect(counters.get(alias.id)).toMatchObject({ forwarded: 3, failed: 0 })
  })

  it.skipIf(!dkimpyAvailable())('ARC-seals the forward over the chain it arrived with: dkimpy validates the chain after our rewrite', async () => {
    // a list server upstream sealed it first (i=1), with a key published in DNS
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    env.resolver.records['arc._domainkey.lists.example TXT'] = [[dkimRecordFor(key)]]
    const alias = await env.createAlias('chained@mailbox.example')
    const raw = dkimpyArcSign(Buffer.from([
      'Authentication-Results: lists.example; spf=pass smtp.mailfrom=ada@outside.example', 'From: Ada <ada@outside.example>', `To: ${alias.address}`,
      'Subject: Sealed upstream', 'Date: Mon, 01 Jan 2024 10:00:00 +0000', 'Message-ID: <arc-1@outside.example>', '', 'Through a list first\r\n',
    ].join('\r\n')), { selector: 'arc', domain: 'lists.example', key, srvId: 'lists.example' })
    expect((await env.send({ envelopeFrom: 'ada@outside.example', to: alias.address, raw })).response).toMatch(/^250 /)

    const message = await waitFor(env.relay, 'message', relayedTo('chained@mailbox.example', 'arc-1@outside.example'))
    expect(headerOf(message.raw, 'arc-seal').find((v) => v.startsWith('i=2;'))).toMatch(/ cv=pass; d=veilmail\.test; s=/)
    // our results, the upstream chain's verdict among them, under our instance
    expect(headerOf(message.raw, 'arc-authentication-results').find((v) => v.startsWith('i=2;'))).toMatch(/^i=2; mx\.veilmail\.test;.* arc=pass/)
    const records = Object.fromEntries(Object.entries(env.resolver.records).filter(([name]) => name.includes('._domainkey.')).map(([name, [txt]]) => [name.slice(0, -' TXT'.length), (txt as string[]).join('')]))
    expect(dkimpyArcVerify(message.raw, records)).toMatchObject({ cv: 'pass', instances: [2, 1] })
  })

  it('retries while the relay is down and delivers once it is back', async () => {
    const alias = await env.createAlias('patient@mailbox.example')
    await env.relayDown()
    await env.send({ to: alias.address, subject: 'relay-down-1', headers: { 'Message-ID': '<relay-down-1@outside.example>' } })
    const attempts = async () => (await env.db.sql`select attempts from deliveries where alias_id = ${alias.id}`)[0]?.attempts ?? 0
    await expect.poll(attempts, { timeout: 15_000 }).toBeGreaterThanOrEqual(1)
    expect(await spoolCount()).toBe(1)
    const relay = await env.relayUp()
    const delivered = await waitFor(relay, 'message', () => relay.messages.find((m) => m.raw.includes('relay-down-1')))
    expect(delivered.to).toEqual(['patient@mailbox.example'])
    await expect.poll(spoolCount).toBe(0)
    expect(relay.messages.filter((m) => m.raw.includes('relay-down-1'))).toHaveLength(1)
  })

  it('stops at a permanent refusal from the relay and counts the failure', async () => {
    const alias = await env.createAlias('gone@mailbox.example')
    env.relay.rejectRcpt = 550
    try {
      await env.send({ to: alias.address, subject: 'refused' })
      await expect.poll(async () => (await env.db.sql`select count(*)::int as n from spool_messages`)[0].n).toBe(0)
    } finally {
      env.relay.rejectRcpt = undefined
    }
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ forwarded: 0, failed: 1 })
  })

  it('accepts a bounce to an SRS address it issued and never forwards it', async () => {
    const srsAddress = env.deps.srs.forward('someone@outside.example', 'veilmail.test')
    const before = env.relay.messages.length
    const sent = await env.send({ envelopeFrom: '', to: srsAddress, raw: 'From: MAILER-DAEMON@outside.example\r\nSubject: Undelivered\r\n\r\nbounce\r\n' })
    expect(sent.response).toMatch(/^250 /)
    expect(await spoolCount()).toBe(0)
    expect(env.relay.messages.length).toBe(before)
    await expect(env.send({ envelopeFrom: '', to: 'SRS0=aaaaaaaa=aa=outside.example=someone@veilmail.test', raw: 'Subject: x\r\n\r\nx\r\n' }))
      .rejects.toMatchObject({ responseCode: 550 })
  })

  it('refuses a message that loops back to the alias it was forwarded from', async () => {
    const alias = await env.createAlias('loop@mailbox.example')
    const token = env.deps.loopTokens.tokenFor(alias.id)
    await expect(env.send({ to: alias.address, raw: `X-Veilmail-Loop: ${token}\r\nFrom: a@outside.example\r\nSubject: loop\r\n\r\nloop\r\n` }))
      .rejects.toMatchObject({ responseCode: 554 })
  })
})
