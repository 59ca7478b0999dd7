// The authentication check the MX leaves to the delivery (workers/mail/message-auth.ts) runs once
// per message, not once per target: the deliveries of one message share one run in a process, and
// the results are stored with the message for the deliveries that run later or in another process.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { fieldValue, splitMessage } from '../mail/raw-message.ts'
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
