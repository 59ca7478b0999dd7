import { dkimVerify } from 'mailauth'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { createMailEnv, type MailEnv, type TestAlias } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'

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
  // the forward has committed (its Message-ID is on the alias's thread from then on)
  await vi.waitFor(async () => expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.forwarded).toBe(1), { timeout: 20_000, interval: 100 })
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
      'Date: Mon, 1 Jan 2024 12:00:00 +0200 (CEST)',
      'References: <lunch-1@outside.example> <older@mailbox.example> <CAJx9f3=private@mail.gmail.com>\r\n <other-thread@elsewhere.example>',
      'X-Originating-IP: [203.0.113.9]', 'User-Agent: Real Mail 1.0',
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
      expect(header(message.raw, 'date')).toEqual(['Mon, 01 Jan 2024 10:00:00 +0000'])
      expect(header(message.raw, 'message-id')[0]).toMatch(/@veilmail\.test>$/)
      expect(splitMessage(message.raw).body.toString()).toBe('Yes, noon works.\r\n')
      const verified = await dkimVerify(message.raw, { resolver: env.resolver })
      expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['veilmail.test', 'pass']])
    }
    await expect.poll(async () => (await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.replied).toBe(2)
  })

  it("replaces the client's MIME boundaries and Content-IDs (cid: links kept working) and drops part fields", async () => {
    const cid = 'part1.A1B2C3D4.E5F6@laptop.mailbox.example'
    const html = `<p>See the map: <img src="cid:${cid}" alt="map"></p><p>${'long line '.repeat(12)}</p>`
    const qp = html.replace(/=/g, '=3D').replace(/.{70}/g, '$&=\r\n')
    const reply = [
      'From: real.user@mailbox.example', `To: ${adaReverse}`, 'Subject: Re: map', 'Date: Tue, 2 Jan 2024 09:03:04 -0800',
      'MIME-Version: 1.0', 'Content-Type: multipart/related; boundary="------------ThunderbirdPart0123Real"', '',
      'This is a multi-part message in MIME format sent by Thunderbird on laptop.mailbox.example.',
      '--------------ThunderbirdPart0123Real', 'Content-Type: multipart/alternative;', ' boundary="Apple-Mail=_C0FFEE-Real-User-MacBook"', '',
      '--Apple-Mail=_C0FFEE-Real-User-MacBook', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 7bit', '', 'See the map.',
      '--Apple-Mail=_C0FFEE-Real-User-MacBook', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', qp,
      '--Apple-Mail=_C0FFEE-Real-User-MacBook--', '',
      '--------------ThunderbirdPart0123Real', 'Content-Type: image/png; name="map.png"', 'Content-Disposition: inline; filename="map.png"',
      `Content-ID: <${cid}>`, 'X-Attachment-Id: f_laptop_real_user', 'Content-Transfer-Encoding: base64', '', Buffer.from('PNGDATA').toString('base64'),
      '--------------ThunderbirdPart0123Real--', '',
    ].join('\r\n')
    await env.send({ envelopeFrom: 'real.user@mailbox.example', to: adaReverse, raw: reply })
    const message = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('ada@outside.example') && m.raw.includes('Re: map')))
    expect(message.raw.toString('latin1')).not.toMatch(/Thunderbird|Apple-Mail|laptop|mailbox\.example|Real-User|X-Attachment-Id|A1B2C3D4/i)
    expect(header(message.raw, 'date')).toEqual(['Tue, 02 Jan 2024 17:03:04 +0000'])
    const parsed = await simpleParser(message.raw)
    expect(parsed.text?.trim()).toBe('See the map.')
    const image = parsed.attachments.find((a) => a.contentType === 'image/png')!
    expect(image.content.toString()).toBe('PNGDATA')
    expect(image.contentId).toMatch(/^<[0-9a-f-]{36}@veilmail\.invalid>$/)
    // mailparser turns cid: links it can resolve into data: URLs; the link must still resolve to the image
    expect(parsed.html).toContain(`src="data:image/png;base64,${Buffer.from('PNGDATA').toString('base64')}"`)
    expect(parsed.html).toContain('long line '.repeat(12).trim())
    const verified = await dkimVerify(message.raw, { resolver: env.resolver })
    expect(verified.results.map((r) => r.status.result)).toEqual(['pass'])
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
