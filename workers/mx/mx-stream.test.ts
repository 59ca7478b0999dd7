// DATA streamed into the chunked sealed spool and forwarded out of it (docs/mail-flow.md, "Streaming"), over real
// SMTP into a real database: a 24 MB message end to end, damaged spools refused, rows of the
// older single-blob format still delivered, a client that drops mid-DATA, the header cap.
import { once } from 'node:events'
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import { dkimVerify } from 'mailauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { getSpoolMessage, insertDeliveries } from '../../db/spool.ts'
import { SecretBox } from '../../lib/secret-box.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'
import { forwardEmailHandler } from '../delivery/forward-email.ts'
import { splitMessage } from '../../lib/raw-message.ts'
import { SPOOL_CHUNK_BYTES, SpoolCodec, SpoolDamagedError } from '../mail/spool-codec.ts'
import { SpooledMessage } from '../mail/spooled-message.ts'
import { GROUP_COMMIT_MAX_BYTES } from './mx-spool.ts'

let env: MailEnv
let codec: SpoolCodec
beforeAll(async () => {
  // No delivery worker: each test runs the forward handler itself, on what it looked at first.
  env = await createMailEnv({ worker: false, env: { MAX_MESSAGE_BYTES: String(25 * 1024 * 1024) } })
  codec = new SpoolCodec(env.config.secretKey)
})
afterAll(async () => {
  await env?.close()
})

/** A message whose body is `bytes` of random base64 in 76-character lines: any chunk out of place shows. */
function messageOf(bytes: number, subject: string): Buffer {
  const head = `From: Sam Sender <sender@outside.example>\r\nTo: someone@veilmail.test\r\nSubject: ${subject}\r\nMessage-ID: <${randomBytes(8).toString('hex')}@outside.example>\r\n\r\n`
  const text = randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64').slice(0, bytes)
  return Buffer.from(head + text.replace(/.{1,76}/g, '$&\r\n'), 'latin1')
}

const queuedId = (response: string) => /queued as ([0-9a-f-]{36})/.exec(response)![1]

async function deliveryOf(spoolId: string) {
  const [d] = await env.db.sql<{ id: string; status: string; lastError: string | null }[]>`select id, status, last_error from deliveries where spool_id = ${spoolId}`
  return d
}

async function spooledMessage(spoolId: string) {
  return new SpooledMessage(env.db.sql, codec, (await getSpoolMessage(env.db.sql, spoolId))!)
}

const relayed = (to: string) => env.relay.messages.filter((m) => m.to.includes(to))

describe('streamed spool', () => {
  it('accepts a 24 MB message in sealed chunks and forwards it byte-exact, DKIM-signed', { timeout: 240_000 }, async () => {
    const alias = await env.createAlias('big@mailbox.example')
    const raw = messageOf(24 * 1024 * 1024, 'big one')
    const sent = await env.send({ to: alias.address, raw })
    const spoolId = queuedId(sent.response)
    const [row] = await env.db.sql<{ size: number; chunks: number; largest: number; stored: number }[]>`
      select size, chunks, (select max(octet_length(sealed)) from spool_chunks where spool_id = s.id) as largest,
             (select count(*)::int from spool_chunks where spool_id = s.id) as stored
      from spool_messages s where id = ${spoolId}`
    // every chunk full but the last, none larger than a chunk and its seal (version, nonce, tag);
    // smaller when compressing shrank it (spool-codec.ts)
    expect(row).toEqual({ size: raw.length, chunks: Math.ceil(raw.length / SPOOL_CHUNK_BYTES), largest: row.largest, stored: row.chunks })
    expect(row.largest).toBeLessThanOrEqual(SPOOL_CHUNK_BYTES + 29)

    const delivery = await deliveryOf(spoolId)
    await forwardEmailHandler(env.deps)({ deliveryId: delivery.id })
    expect((await deliveryOf(spoolId))?.status ?? 'gone').toBe('gone') // sent, and the message forgotten with its chunks
    expect(await env.db.sql`select 1 from spool_chunks where spool_id = ${spoolId}`).toHaveLength(0)
    const [forwarded] = relayed('big@mailbox.example')
    expect(splitMessage(forwarded.raw).body.equals(splitMessage(raw).body)).toBe(true)
    // our ARC set, then our DKIM signature, on top
    expect(splitMessage(forwarded.raw).headers.slice(0, 4).map((h) => h.key)).toEqual(['arc-seal', 'arc-message-signature', 'arc-authentication-results', 'dkim-signature'])
    const verified = await dkimVerify(forwarded.raw, { resolver: env.resolver })
    expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['veilmail.test', 'pass']])
  })

  it('refuses to read a spooled message whose chunks were reordered, removed or cut short', async () => {
    const alias = await env.createAlias('damaged@mailbox.example')
    const spool = async (subject: string) => queuedId((await env.send({ to: alias.address, raw: messageOf(GROUP_COMMIT_MAX_BYTES + 5 * SPOOL_CHUNK_BYTES, subject) })).response)

    const swapped = await spool('swapped')
    expect(await (await spooledMessage(swapped)).whole()).toHaveLength((await getSpoolMessage(env.db.sql, swapped))!.size)
    await env.db.sql`update spool_chunks set seq = -1 where spool_id = ${swapped} and seq = 1`
    await env.db.sql`update spool_chunks set seq = 1 where spool_id = ${swapped} and seq = 2`
    await env.db.sql`update spool_chunks set seq = 2 where spool_id = ${swapped} and seq = -1`
    await expect((await spooledMessage(swapped)).whole()).rejects.toBeInstanceOf(SpoolDamagedError)

    const missing = await spool('missing last')
    await env.db.sql`delete from spool_chunks where spool_id = ${missing} and seq = (select max(seq) from spool_chunks where spool_id = ${missing})`
    await expect((await spooledMessage(missing)).whole()).rejects.toBeInstanceOf(SpoolDamagedError)

    // the count lowered with it: the new last chunk was not sealed as the last
    const cut = await spool('cut short')
    await env.db.sql`delete from spool_chunks where spool_id = ${cut} and seq = (select max(seq) from spool_chunks where spool_id = ${cut})`
    await env.db.sql`update spool_messages set chunks = chunks - 1 where id = ${cut}`
    await expect((await spooledMessage(cut)).whole()).rejects.toBeInstanceOf(SpoolDamagedError)

    // a chunk of another message in its place
    const foreign = await spool('foreign')
    await env.db.sql`update spool_chunks set sealed = (select sealed from spool_chunks where spool_id = ${cut} and seq = 1) where spool_id = ${foreign} and seq = 1`
    await expect((await spooledMessage(foreign)).whole()).rejects.toBeInstanceOf(SpoolDamagedError)

    // through the forward step: nothing leaves, and each delivery fails for good (the handler does
    // not throw, which would retry) and takes its message with it
    for (const spoolId of [swapped, missing, cut, foreign]) {
      const delivery = await deliveryOf(spoolId)
      await expect(forwardEmailHandler(env.deps)({ deliveryId: delivery.id })).resolves.toBeUndefined()
      expect(await env.db.sql`select 1 from spool_messages where id = ${spoolId}`).toHaveLength(0)
    }
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ failed: 4, forwarded: 0 })
    expect(relayed('damaged@mailbox.example')).toHaveLength(0)
  })

  it('still delivers a message spooled in the single-blob format of before', async () => {
    const alias = await env.createAlias('old@mailbox.example')
    const raw = messageOf(600_000, 'spooled before chunking')
    const id = crypto.randomUUID()
    const meta = codec.sealMeta(id, { mailFrom: 'sender@outside.example', remoteAddress: '127.0.0.1', helo: 'client.example', secure: false,
      receivedAt: new Date().toISOString(), auth: { spf: 'none', dkim: 'none', dmarc: 'none', arc: 'none', dkimPassDomains: [], dkimFailDomains: [], headers: '' } })
    // as the MX sealed a message until migration 0034: one value, the row id as associated data
    const sealed = new SecretBox(env.config.secretKey, 'spool').seal(raw, id)
    await env.db.sql`insert into spool_messages (id, raw, meta, size) values (${id}, ${sealed}, ${meta}, ${raw.length})`
    const deliveryId = crypto.randomUUID()
    await insertDeliveries(env.db.sql, [{ id: deliveryId, spoolId: id, aliasId: alias.id, kind: 'email', target: 'old@mailbox.example' }])
    await forwardEmailHandler(env.deps)({ deliveryId })
    const [forwarded] = relayed('old@mailbox.example')
    expect(splitMessage(forwarded.raw).body.equals(splitMessage(raw).body)).toBe(true)
    expect(forwarded.raw.toString('latin1')).toMatch(/\r\nSubject: spooled before chunking\r\n/)
    expect(await env.db.sql`select 1 from spool_messages where id = ${id}`).toHaveLength(0)
  })

  it('keeps nothing of a message whose client drops mid-DATA, and takes the next', { timeout: 60_000 }, async () => {
    const alias = await env.createAlias('dropped@mailbox.example')
    const stored = async () => (await env.db.sql<{ n: number }[]>`
      select (select count(*) from spool_messages)::int + (select count(*) from spool_chunks)::int as n`)[0].n
    const before = await stored()
    const socket = net.connect(env.mxPort, '127.0.0.1')
    let replies = ''
    socket.on('data', (d: Buffer) => { replies += d.toString('latin1') })
    const reply = async (code: string) => expect.poll(() => replies, { timeout: 20_000 }).toMatch(new RegExp(`(^|\\n)${code} [^\\n]*\\r\\n$`))
    await once(socket, 'connect')
    await reply('220')
    for (const [line, code] of [['EHLO client.example', '250'], ['MAIL FROM:<sender@outside.example>', '250'], [`RCPT TO:<${alias.address}>`, '250'], ['DATA', '354']]) {
      replies = ''
      socket.write(line + '\r\n')
      await reply(code)
    }
    socket.write(messageOf(3 * GROUP_COMMIT_MAX_BYTES, 'never finished'))
    // its chunks are being written, in a transaction not yet committed
    const open = async () => (await env.db.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and query like 'insert into spool_chunks%' and state like 'idle in transaction%'`)[0].n
    await expect.poll(open, { timeout: 20_000 }).toBe(1)
    socket.destroy()
    await expect.poll(open, { timeout: 20_000 }).toBe(0)
    expect(await stored()).toBe(before)
    expect((await env.send({ to: alias.address, subject: 'after the drop' })).response).toMatch(/^250 /)
  })

  it('refuses a header part over 1 MiB with 552, and the session goes on', async () => {
    const alias = await env.createAlias('header@mailbox.example')
    const { client } = await RawSmtp.connect(env.mxPort)
    await client.command('EHLO client.example')
    await client.command('MAIL FROM:<sender@outside.example>')
    await client.command(`RCPT TO:<${alias.address}>`)
    const filler = Array.from({ length: 1100 }, (_, i) => `X-Filler-${i}: ${'f'.repeat(1000)}\r\n`).join('')
    expect(await client.data(`Subject: long header\r\n${filler}\r\nbody\r\n`)).toMatch(/^552 5\.3\.4 Message header exceeds 1048576 bytes/)
    expect(await client.command('NOOP')).toMatch(/^250 /)
    client.close()
  })
})
