import { dkimVerify } from 'mailauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../db/alias-counters.ts'
import { createMailEnv, type MailEnv, type TestAlias } from '../scripts/testing/mail-env.ts'
import { waitFor } from '../scripts/testing/mail-stand-ins.ts'
import { fieldValue, splitMessage } from './raw-message.ts'

let env: MailEnv
let alias: TestAlias
let adaReverse: string
let bobReverse: string

const header = (raw: Buffer, key: string) => splitMessage(raw).headers.filter((h) => h.key === key).map(fieldValue)
const headerText = (raw: Buffer) => splitMessage(raw).headers.map((h) => h.line).join('\n')

beforeAll(async () => {
  env = await createMailEnv()
  alias = await env.createAlias('real.user@mailbox.example')
  await env.send({
    envelopeFrom: 'ada@outside.example', to: alias.address,
    raw: `From: Ada <ada@outside.example>\r\nTo: ${alias.address}\r\nCc: Bob <bob@elsewhere.example>\r\nSubject: Lunch?\r\nMessage-ID: <lunch-1@outside.example>\r\n\r\nShall we?\r\n`,
  })
  const forwarded = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes('lunch-1@outside.example')))
  adaReverse = header(forwarded.raw, 'reply-to')[0]
  bobReverse = /"Bob <bob@elsewhere\.example>" <([^>]+)>/.exec(header(forwarded.raw, 'cc')[0])![1]
})
afterAll(async () => {
  await env?.close()
})

describe('anonymous replies', () => {
  it('re-sends a reply from the alias to each contact named, with the real address gone from every header', async () => {
    const reply = [
      'Received: from laptop ([203.0.113.9]) by smtp.mailbox.example with ESMTPSA id 42; Mon, 1 Jan 2024 10:00:00 +0000',
      'DKIM-Signature: v=1; a=rsa-sha256; d=mailbox.example; s=s1; i=real.user@mailbox.example; b=abc',
      'From: "Real User" <real.user@mailbox.example>', 'Sender: real.user@mailbox.example', 'Reply-To: Real User <real.user@mailbox.example>',
      `To: "Ada <ada@outside.example> via Veilmail" <${adaReverse}>`, `Cc: "Bob" <${bobReverse}>, real.user@mailbox.example`,
      'Subject: Re: Lunch?', 'Message-ID: <reply-1@mailbox.example>', 'In-Reply-To: <lunch-1@outside.example>',
      'References: <lunch-1@outside.example> <older@mailbox.example>', 'X-Originating-IP: [203.0.113.9]', 'User-Agent: Real Mail 1.0',
      'X-Mailer: Real Mail', 'Disposition-Notification-To: real.user@mailbox.example', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8',
      '', 'Yes, noon works.', '',
    ].join('\r\n')
    const sent = await env.send({ envelopeFrom: 'real.user@mailbox.example', to: [adaReverse, bobReverse], raw: reply })
    expect(sent.accepted).toHaveLength(2)

    const toAda = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('ada@outside.example') && m.raw.includes('noon works')))
    const toBob = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('bob@elsewhere.example') && m.raw.includes('noon works')))
    for (const message of [toAda, toBob]) {
      expect(message.from).toBe(alias.address)
      const text = headerText(message.raw)
      expect(text).not.toMatch(/mailbox\.example|Real User|203\.0\.113\.9|Real Mail/i)
      expect(header(message.raw, 'from')).toEqual([alias.address])
      expect(header(message.raw, 'to')).toEqual(['"Ada" <ada@outside.example>'])
      expect(header(message.raw, 'cc')).toEqual(['"Bob" <bob@elsewhere.example>'])
      expect(header(message.raw, 'sender')).toEqual([])
      expect(header(message.raw, 'reply-to')).toEqual([])
      expect(header(message.raw, 'in-reply-to')).toEqual(['<lunch-1@outside.example>'])
      expect(header(message.raw, 'references')).toEqual(['<lunch-1@outside.example>'])
      expect(header(message.raw, 'message-id')[0]).toMatch(/@veilmail\.test>$/)
      expect(splitMessage(message.raw).body.toString()).toBe('Yes, noon works.\r\n')
      const verified = await dkimVerify(message.raw, { resolver: env.resolver })
      expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['veilmail.test', 'pass']])
    }
    await expect.poll(async () => (await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.replied).toBe(2)
  })

  it('refuses a reverse alias to anyone but the alias owner (RCPT), or a forged From (DATA)', async () => {
    await expect(env.send({ envelopeFrom: 'stranger@evil.example', from: 'stranger@evil.example', to: adaReverse })).rejects.toMatchObject({ responseCode: 550 })
    await expect(env.send({ envelopeFrom: '', from: 'real.user@mailbox.example', to: adaReverse })).rejects.toMatchObject({ responseCode: 550 })
    await expect(env.send({ envelopeFrom: 'real.user@mailbox.example', from: 'stranger@evil.example', to: adaReverse }))
      .rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('5.7.1') })
  })

  it('refuses a reply failing the SPF its domain publishes, and takes it once SPF passes', async () => {
    env.resolver.records['mailbox.example TXT'] = [['v=spf1 ip4:198.51.100.1 -all']]
    try {
      await expect(env.send({ envelopeFrom: 'real.user@mailbox.example', from: 'real.user@mailbox.example', to: adaReverse, subject: 'spoofed' }))
        .rejects.toMatchObject({ responseCode: 550 })
      env.resolver.records['mailbox.example TXT'] = [['v=spf1 ip4:127.0.0.1 -all']]
      const sent = await env.send({ envelopeFrom: 'real.user@mailbox.example', from: 'real.user@mailbox.example', to: adaReverse, subject: 'genuine' })
      expect(sent.response).toMatch(/^250 /)
    } finally {
      delete env.resolver.records['mailbox.example TXT']
    }
  })
})
