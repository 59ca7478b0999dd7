// postmaster@ and abuse@ each mail domain (RFC 5321 §4.5.1, RFC 2142): accepted by the MX over
// real SMTP and forwarded to OPERATOR_EMAIL through the relay stand-in; refused with a reason
// naming the setting when it is unset. The names stay reserved for users.
import { dkimVerify } from 'mailauth'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isReservedAliasName } from '../../shared/reserved-alias-names.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ env: { OPERATOR_EMAIL: 'ops@operator.example' } })
})
afterAll(async () => {
  await env?.close()
})

const toOperator = (marker: string) => waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('ops@operator.example') && m.raw.includes(marker)))

describe('postmaster and abuse mailboxes', () => {
  it('forwards mail to postmaster@ and abuse@ each mail domain to the operator, the original attached', async () => {
    for (const role of ['postmaster@veilmail.test', 'Abuse@veil.test']) {
      const marker = `report ${crypto.randomUUID()}`
      const sent = await env.send({ envelopeFrom: 'reporter@outside.example', from: 'Rita Reporter <reporter@outside.example>', to: role, subject: marker, text: 'spam came from one of your aliases' })
      expect(sent.response).toMatch(/^250 2\.0\.0 Ok: queued as /)
      const note = await toOperator(marker)
      const domain = role.split('@')[1].toLowerCase()
      expect(note.from).toMatch(new RegExp(`^SRS0=.*@${domain.replace('.', '\\.')}$`, 'i'))
      const parsed = await simpleParser(note.raw)
      expect(parsed.from?.value[0].address).toBe(role.toLowerCase())
      expect(parsed.replyTo?.value[0].address).toBe('reporter@outside.example')
      expect(parsed.subject).toBe(`[${role.toLowerCase()}] ${marker}`)
      expect(parsed.headers.get('auto-submitted')).toBe('auto-forwarded')
      expect(parsed.text).toContain(`Mail to ${role.toLowerCase()}`)
      const attached = parsed.attachments.find((a) => a.contentType === 'message/rfc822')!
      const original = await simpleParser(attached.content)
      expect(original.subject).toBe(marker)
      expect(original.text?.trim()).toBe('spam came from one of your aliases')
      const verified = await dkimVerify(note.raw, { resolver: env.resolver })
      expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([[domain, 'pass']])
    }
    // done: each delivery finished and the spooled message went with it
    await expect.poll(async () => (await env.db.sql`select 1 from deliveries where kind = 'operator'`).length).toBe(0)
  })

  it('takes RCPT TO:<Postmaster> without a domain (RFC 5321 §4.1.1.3)', async () => {
    const { client } = await RawSmtp.connect(env.mxPort)
    try {
      await client.command('EHLO client.example')
      expect(await client.command('MAIL FROM:<reporter@outside.example>')).toMatch(/^250 /)
      expect(await client.command('RCPT TO:<Postmaster>')).toMatch(/^250 /)
      const marker = `bare ${crypto.randomUUID()}`
      expect(await client.data(`From: reporter@outside.example\r\nSubject: ${marker}\r\n\r\nhello\r\n`)).toMatch(/^250 /)
      expect((await toOperator(marker)).raw.toString()).toContain('[postmaster@veilmail.test]')
    } finally {
      client.close()
    }
  })

  it('refuses postmaster@ and abuse@ naming the missing OPERATOR_EMAIL when it is unset, and keeps the names reserved', async () => {
    const operator = env.config.operatorEmail
    env.config.operatorEmail = undefined
    try {
      for (const role of ['postmaster@veilmail.test', 'abuse@veil.test']) {
        await expect(env.send({ to: role })).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('OPERATOR_EMAIL is unset') })
      }
    } finally {
      env.config.operatorEmail = operator
    }
    expect(isReservedAliasName('postmaster')).toBe(true)
    expect(isReservedAliasName('abuse')).toBe(true)
  })
})
