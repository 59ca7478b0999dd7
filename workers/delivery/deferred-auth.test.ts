// The authentication check the MX leaves to the delivery (workers/mail/message-auth.ts) runs once
// per message, not once per target: the deliveries of one message share one run in a process, and
// the results are stored with the message for the deliveries that run later or in another process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { DeferredAuth, authenticatedMeta } from '../mail/message-auth.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'
import { createDeliveryDeps } from './delivery-deps.ts'
import { forwardEmailHandler } from './forward-email.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ worker: false })
})
afterAll(async () => {
  await env?.close()
})

/** The delivery's resolver, counting the SPF checks of `domain` (RFC 7208 §4.4: one TXT query of the domain each). */
function countingDeps(domain: string) {
  const checks = { spf: 0 }
  const resolver = (name: string, type: string) => {
    if (name === domain && type === 'TXT') checks.spf++
    return env.resolver(name, type)
  }
  return { deps: createDeliveryDeps(env.db.sql, env.config, { resolver }), checks }
}

const targets = ['one@mailbox.example', 'two@mailbox.example', 'three@mailbox.example']
const relayed = (subject: string) => env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))
const authResults = (raw: Buffer) => splitMessage(raw).headers.filter((h) => h.key === 'authentication-results').map(fieldValue)

async function sendToThree(subject: string) {
  const alias = await env.createAlias(targets.join(', '))
  const domain = `sender-${crypto.randomUUID().slice(0, 8)}.example`
  await env.send({ from: `Ada <ada@${domain}>`, to: alias.address, subject })
  const deliveries = (await env.db.sql<{ id: string }[]>`select id from deliveries where alias_id = ${alias.id} order by target`).map((d) => d.id)
  expect(deliveries).toHaveLength(3)
  const [{ meta }] = await env.db.sql<{ meta: Buffer }[]>`select s.meta from spool_messages s join deliveries d on d.spool_id = s.id where d.id = ${deliveries[0]}`
  return { domain, deliveries, meta }
}

it('checks a message forwarded to three mailboxes at once one time, and each forward carries the results', async () => {
  const { domain, deliveries } = await sendToThree('three at once')
  const { deps, checks } = countingDeps(domain)
  const forward = forwardEmailHandler(deps)
  // as one fetched batch runs them: side by side
  await Promise.all(deliveries.map((deliveryId) => forward({ deliveryId })))
  const sent = relayed('three at once')
  expect(sent.map((m) => m.to[0]).sort()).toEqual([...targets].sort())
  expect(checks.spf).toBe(1)
  const results = sent.map((m) => authResults(m.raw))
  expect(results[0]).toHaveLength(1)
  expect(results[0][0]).toMatch(/^mx\.veilmail\.test;.*spf=/s)
  expect(results[1]).toEqual(results[0])
  expect(results[2]).toEqual(results[0])
})

it('stores the results with the message: the other targets forwarded later, by another process, are not checked again', async () => {
  const { domain, deliveries, meta } = await sendToThree('one then two')
  const first = countingDeps(domain)
  await forwardEmailHandler(first.deps)({ deliveryId: deliveries[0] })
  expect(first.checks.spf).toBe(1)
  const [{ stored }] = await env.db.sql<{ stored: Buffer }[]>`select s.meta as stored from spool_messages s join deliveries d on d.spool_id = s.id where d.id = ${deliveries[1]}`
  expect(Buffer.compare(stored, meta)).not.toBe(0) // sealed again, with the results

  // another delivery process: nothing remembered in memory
  const later = countingDeps(domain)
  const forward = forwardEmailHandler(later.deps)
  for (const deliveryId of deliveries.slice(1)) await forward({ deliveryId })
  expect(later.checks.spf).toBe(0)
  const sent = relayed('one then two')
  expect(sent).toHaveLength(3)
  expect(authResults(sent[1].raw)).toEqual(authResults(sent[0].raw))
  expect(authResults(sent[2].raw)).toEqual(authResults(sent[0].raw))
  // the last delivery took the message with it
  expect(await env.db.sql`select 1 from deliveries d join spool_messages s on s.id = d.spool_id where d.id = ${deliveries[2]}`).toHaveLength(0)
})

describe('what the check reads', () => {
  const meta = { mailFrom: 'ada@outside.example', remoteAddress: '192.0.2.7', helo: 'mail.outside.example', secure: true, receivedAt: new Date().toISOString() }
  const head = 'From: Ada <ada@veilmail.test>\r\nTo: someone@veilmail.test\r\nSubject: body or not\r\nMessage-ID: <body-or-not@veilmail.test>\r\n'
  const body = Buffer.from('A body of some length.\r\n'.repeat(4000))
  /** The message in two pieces, as the spool gives it: the header with the body's start, then the rest; `read` says how far it was read. */
  const spooled = (raw: Buffer) => {
    const read = { pieces: 0 }
    const cut = raw.indexOf('\r\n\r\n') + 4 + 100
    return {
      read,
      message: {
        headers: async () => splitMessage(raw).headers,
        async *chunks() {
          read.pieces = 1
          yield raw.subarray(0, cut)
          read.pieces = 2
          yield raw.subarray(cut)
        },
      },
    }
  }

  it('reads only the header of a message no signature covers, with the results the whole message gives', async () => {
    const raw = Buffer.concat([Buffer.from(head + '\r\n'), body])
    const { read, message } = spooled(raw)
    const deps = { resolver: env.resolver, mxHostname: env.config.mxHostname, dnsTimeoutMs: env.config.dnsTimeoutMs }
    const checked = await new DeferredAuth(deps).metaOf(crypto.randomUUID(), meta, message)
    expect(read.pieces).toBe(1)
    const whole = await authenticatedMeta(meta, async function* () { yield raw }, deps)
    expect(checked.auth).toEqual(whole.auth)
    expect(checked.auth.dkim).toBe('none')
  })

  it('reads the whole of a signed message: its DKIM result depends on the body', async () => {
    const signed = await env.deps.dkim.sign(Buffer.concat([Buffer.from(head + '\r\n'), body]), 'veilmail.test')
    const deps = { resolver: env.resolver, mxHostname: env.config.mxHostname, dnsTimeoutMs: env.config.dnsTimeoutMs }
    const intact = spooled(signed)
    const checked = await new DeferredAuth(deps).metaOf(crypto.randomUUID(), meta, intact.message)
    expect(intact.read.pieces).toBe(2)
    expect(checked.auth.dkim).toBe('pass')
    // the same message with its last body byte changed no longer verifies
    const altered = Buffer.from(signed)
    altered[altered.length - 3] = 0x21
    const broken = await new DeferredAuth(deps).metaOf(crypto.randomUUID(), meta, spooled(altered).message)
    expect(broken.auth.dkim).not.toBe('pass') // mailauth: neutral, the body hash did not verify
    expect(broken.auth).toEqual((await authenticatedMeta(meta, async function* () { yield altered }, deps)).auth)
  })
})
