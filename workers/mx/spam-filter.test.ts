// Spam filtering with rspamd (issue 30): a real rspamd, started for this file, scores what the MX
// accepts. GTUBE is refused in the session, ordinary mail is forwarded with the verdict's fields,
// spam is tagged or dropped as the alias says, and with rspamd stopped or silent mail still goes
// through (fail open), counted by veilmail_spam_checks_total.
import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { registry } from '../../db/metrics.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { startDnsStandIn, type DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { rspamdAvailable, startTestRspamd, subjectRules } from '../../scripts/testing/rspamd.ts'
import { splitMessage, firstValue } from '../../lib/raw-message.ts'

const run = rspamdAvailable()
// rspamd's test pattern (https://rspamd.com/doc/gtube_patterns.html): its action is reject
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X'

async function spamChecks(result: string): Promise<number> {
  const metric = await registry.getSingleMetric('veilmail_spam_checks_total')!.get()
  return metric.values.find((v) => v.labels.result === result)?.value ?? 0
}

const relayed = (env: MailEnv, subject: string) => waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes(`${subject}\r\n`)), 30_000)
const header = (raw: Buffer, name: string) => firstValue(splitMessage(raw).headers, name)

describe.skipIf(!run)('spam filtering with rspamd', () => {
  let dns: DnsStandIn
  let rspamd: Awaited<ReturnType<typeof startTestRspamd>>
  let env: MailEnv
  beforeAll(async () => {
    dns = await startDnsStandIn()
    rspamd = await startTestRspamd({ dnsServer: dns.server, localConfig: subjectRules({ spam: 'cheap watches', later: 'come back later' }) })
    env = await createMailEnv({ env: { RSPAMD_URL: rspamd.url, RSPAMD_TIMEOUT_MS: '20000' } })
  }, 180_000)
  afterAll(async () => {
    await env?.close()
    await rspamd?.close()
    await dns?.close()
  })

  it('refuses the GTUBE message in the SMTP session with 550, and stores nothing', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const before = await spamChecks('reject')
    await expect(env.send({ to: alias.address, subject: 'gtube', text: `Test message\r\n${GTUBE}\r\n` }))
      .rejects.toMatchObject({ responseCode: 550, response: '550 5.7.1 Message refused as spam' })
    expect(await env.db.sql`select 1 from deliveries where alias_id = ${alias.id}`).toHaveLength(0)
    expect(await spamChecks('reject')).toBe(before + 1)
  })

  it('forwards an ordinary message with X-Spam-Status and X-Spam-Score', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const sent = await env.send({ to: alias.address, subject: 'Lunch on Friday', text: 'Shall we meet at noon by the fountain?' })
    expect(sent.response).toMatch(/^250 2\.0\.0 Ok: queued as /)
    const forward = await relayed(env, 'Subject: Lunch on Friday')
    expect(header(forward.raw, 'x-spam-status')).toMatch(/^No, score=-?\d+\.\d\d required=15\.00 action=no_action$/)
    expect(header(forward.raw, 'x-spam-score')).toMatch(/^-?\d+\.\d\d$/)
    expect(await spamChecks('ham')).toBeGreaterThan(0)
  })

  it('drops a forged X-Spam-Status the sender wrote', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    await env.send({ to: alias.address, subject: 'Cheap watches forged', headers: { 'X-Spam-Status': 'No, score=-100', 'X-Spam-Score': '-100' } })
    const forward = await relayed(env, 'Subject: Cheap watches forged')
    const fields = splitMessage(forward.raw).headers.filter((h) => h.key === 'x-spam-status')
    expect(fields).toHaveLength(1)
    expect(header(forward.raw, 'x-spam-status')).toMatch(/^Yes, score=\d+\.\d\d required=15\.00 action=add_header$/)
    expect(header(forward.raw, 'x-spam-score')).not.toBe('-100')
  })

  it('tags spam by default, puts [SPAM] before the Subject when the alias asks, and drops it for an alias that drops spam', async () => {
    const tag = await env.createAlias('tag@mailbox.example')
    const subject = await env.createAlias('subject@mailbox.example')
    const drop = await env.createAlias('drop@mailbox.example')
    await env.db.sql`update aliases set spam_handling = 'tag-subject' where id = ${subject.id}`
    await env.db.sql`update aliases set spam_handling = 'drop' where id = ${drop.id}`

    const sent = await env.send({ to: [tag.address, subject.address, drop.address], subject: 'Cheap watches for you', text: 'Best prices.' })
    expect(sent.response).toMatch(/^250 /)
    const tagged = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('tag@mailbox.example') && m.raw.includes('Cheap watches for you')), 30_000)
    const retitled = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('subject@mailbox.example') && m.raw.includes('Cheap watches for you')), 30_000)
    expect(header(tagged.raw, 'subject')).toBe('Cheap watches for you')
    expect(header(tagged.raw, 'x-spam-status')).toMatch(/^Yes, score=\d+\.\d\d required=15\.00 action=add_header$/)
    expect(header(retitled.raw, 'subject')).toBe('[SPAM] Cheap watches for you')
    expect(header(retitled.raw, 'x-spam-status')).toMatch(/^Yes, /)
    expect((await getAliasCounters(env.db.sql, [drop.id])).get(drop.id)).toMatchObject({ spam: 1, forwarded: 0 })
    expect(await env.db.sql`select 1 from deliveries where alias_id = ${drop.id}`).toHaveLength(0)

    // the dropping alias alone: accepted (the sender learns nothing), kept nowhere, counted
    const alone = await env.send({ to: drop.address, subject: 'Cheap watches again' })
    expect(alone.response).toBe('250 2.0.0 Ok')
    expect((await getAliasCounters(env.db.sql, [drop.id])).get(drop.id)).toMatchObject({ spam: 2, forwarded: 0 })
    // ordinary mail still reaches the dropping alias
    await env.send({ to: drop.address, subject: 'Minutes of the meeting' })
    expect(header((await relayed(env, 'Subject: Minutes of the meeting')).raw, 'x-spam-status')).toMatch(/^No, /)
  })

  it('answers 451 when rspamd says soft reject, and stores nothing', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    await expect(env.send({ to: alias.address, subject: 'Please come back later' }))
      .rejects.toMatchObject({ responseCode: 451, response: '451 4.7.1 Message deferred by the spam filter, please try again later' })
    expect(await env.db.sql`select 1 from deliveries where alias_id = ${alias.id}`).toHaveLength(0)
  })

  it('scores concurrent messages each on its own: every GTUBE refused, every other forwarded with its verdict', async () => {
    const alias = await env.createAlias('many@mailbox.example')
    const results = await Promise.allSettled(Array.from({ length: 24 }, (_, i) => env.send({
      // rspamd looks for GTUBE in small text parts only (under about 10 kB); the others grow to 1.4 MB, past the spool's streaming size
      to: alias.address, subject: `Concurrent ${i}`, text: i % 2 ? `Number ${i}\r\n${GTUBE}\r\n` : `Number ${i}\r\n${'filler line\r\n'.repeat(i * 5000)}`,
    })))
    results.forEach((r, i) => {
      if (i % 2) expect(r).toMatchObject({ status: 'rejected', reason: { responseCode: 550 } })
      else expect(r).toMatchObject({ status: 'fulfilled', value: { response: expect.stringMatching(/^250 2\.0\.0 Ok: queued as /) } })
    })
    for (let i = 0; i < 24; i += 2) expect(header((await relayed(env, `Subject: Concurrent ${i}`)).raw, 'x-spam-status')).toMatch(/^No, /)
    expect(env.relay.messages.filter((m) => /Subject: Concurrent \d*[13579]\r\n/.test(m.raw.toString('latin1')))).toHaveLength(0)
  })

  it('forwards mail unscored when rspamd is stopped, and counts it', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const before = await spamChecks('unavailable')
    await rspamd.stop()
    const sent = await env.send({ to: alias.address, subject: 'While the filter is away', text: GTUBE })
    expect(sent.response).toMatch(/^250 2\.0\.0 Ok: queued as /)
    const forward = await relayed(env, 'Subject: While the filter is away')
    expect(header(forward.raw, 'x-spam-status')).toBeUndefined()
    expect(await spamChecks('unavailable')).toBe(before + 1)
  })
})

describe.skipIf(!run)('spam filtering with an rspamd that does not answer', () => {
  let env: MailEnv
  let silent: net.Server
  const sockets = new Set<net.Socket>()
  beforeAll(async () => {
    // takes the connection and whatever is sent, and never answers
    silent = net.createServer((socket) => {
      sockets.add(socket)
      socket.on('data', () => {})
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as net.AddressInfo
    env = await createMailEnv({ env: { RSPAMD_URL: `http://127.0.0.1:${port}`, RSPAMD_TIMEOUT_MS: '300' } })
  })
  afterAll(async () => {
    await env?.close()
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent?.close(resolve))
  })

  it('accepts and forwards after RSPAMD_TIMEOUT_MS, counted as a timeout', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const before = await spamChecks('timeout')
    const sent = await env.send({ to: alias.address, subject: 'Slow filter', text: 'x'.repeat(300_000) })
    expect(sent.response).toMatch(/^250 2\.0\.0 Ok: queued as /)
    await relayed(env, 'Subject: Slow filter')
    expect(await spamChecks('timeout')).toBe(before + 1)
  })
})

describe('spam filtering with an rspamd that answers nonsense', () => {
  let env: MailEnv
  let server: http.Server
  let answer: (res: http.ServerResponse) => void = (res) => res.end()
  beforeAll(async () => {
    // reads the whole request as rspamd does, then answers whatever the test set
    server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => answer(res))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as net.AddressInfo
    env = await createMailEnv({ env: { RSPAMD_URL: `http://127.0.0.1:${port}`, RSPAMD_TIMEOUT_MS: '5000' } })
  })
  afterAll(async () => {
    await env?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })

  const answers: [string, (res: http.ServerResponse) => void][] = [
    ['not JSON', (res) => res.end('<html>rspamd?</html>')],
    ['an action rspamd does not have', (res) => res.end(JSON.stringify({ action: 'discard', score: 99, required_score: 15 }))],
    ['a score that is not a number', (res) => res.end(JSON.stringify({ action: 'reject', score: '15', required_score: 15 }))],
    ['over 1 MiB', (res) => res.end(JSON.stringify({ action: 'reject', score: 20, pad: 'x'.repeat(2 * 1024 * 1024) }))],
    ['500', (res) => res.writeHead(500).end('{"error":"internal"}')],
  ]
  for (const [what, respond] of answers) {
    it(`forwards mail unscored when the answer is ${what}, counted as an error`, async () => {
      answer = respond
      const alias = await env.createAlias('owner@mailbox.example')
      const before = await spamChecks('error')
      const subject = `Nonsense answer ${what}`
      const sent = await env.send({ to: alias.address, subject })
      expect(sent.response).toMatch(/^250 2\.0\.0 Ok: queued as /)
      expect(header((await relayed(env, `Subject: ${subject}`)).raw, 'x-spam-status')).toBeUndefined()
      expect(await spamChecks('error')).toBe(before + 1)
    })
  }
})
