import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSql } from '../../db/client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { Srs } from '../mail/srs.ts'
import { resolveRecipient, type Recipient } from '../mail/mx-recipients.ts'
import { createSpooler, GROUP_COMMIT_MAX_BYTES } from './mx-spool.ts'
import { SpoolCodec } from '../mail/spool-codec.ts'

let env: MailEnv
beforeAll(async () => {
  // No delivery worker: what the MX stored stays in place to be counted.
  env = await createMailEnv({ worker: false })
})
afterAll(async () => {
  await env?.close()
})

const meta = { mailFrom: 'sender@outside.example', remoteAddress: '127.0.0.1', helo: 'client.example', secure: false, receivedAt: new Date().toISOString(),
  auth: { spf: 'none', dkim: 'none', dmarc: 'none', arc: 'none', dkimPassDomains: [], dkimFailDomains: [], headers: '' } }

async function stored(spoolIds: string[]) {
  const [row] = await env.db.sql<{ spool: number; deliveries: number; jobs: number; transactions: number }[]>`
    select (select count(*) from spool_messages where id = any(${spoolIds}::uuid[]))::int as spool,
      (select count(*) from deliveries where spool_id = any(${spoolIds}::uuid[]))::int as deliveries,
      (select count(*) from pgboss.job where data->>'deliveryId' in (select id::text from deliveries where spool_id = any(${spoolIds}::uuid[])))::int as jobs,
      (select count(distinct xmin::text) from spool_messages where id = any(${spoolIds}::uuid[]))::int as transactions`
  return row
}

describe('group commit of accepted mail', () => {
  it('commits messages spooled while a commit is in flight together, each once', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const recipient = await resolveRecipient({ sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }, alias.address, 'sender@outside.example')
    const spool = createSpooler({ sql: env.db.sql, boss: env.boss, codec: new SpoolCodec(env.config.secretKey) })
    const ids = (await Promise.all(Array.from({ length: 20 }, (_, i) => spool([recipient], { raw: Buffer.from(`Subject: ${i}\r\n\r\nbody\r\n`), meta })))) as string[]
    expect(new Set(ids).size).toBe(20)
    // the first runs at once; the 19 made meanwhile share the next transaction
    expect(await stored(ids)).toEqual({ spool: 20, deliveries: 20, jobs: 20, transactions: 2 })
  })

  it('prepares each insert once on a connection, whatever the number of messages in a batch', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const recipient = await resolveRecipient({ sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }, alias.address, 'sender@outside.example')
    // one connection: every batch runs on it, and its prepared statements are counted there
    const sql = createSql(env.db.url, { max: 1, name: 'one-connection' })
    try {
      const spool = createSpooler({ sql, boss: env.boss, codec: new SpoolCodec(env.config.secretKey) })
      const batches = []
      // the first of each burst commits alone, the others together: batches of 1, 2 and 4 messages
      for (const burst of [1, 3, 5]) {
        const ids = (await Promise.all(Array.from({ length: burst }, (_, i) => spool([recipient], { raw: Buffer.from(`Subject: ${burst}-${i}\r\n\r\nbody\r\n`), meta })))) as string[]
        batches.push((await stored(ids)).transactions)
      }
      expect(batches).toEqual([1, 2, 2])
      const prepared = await sql<{ statement: string }[]>`
        select statement from pg_prepared_statements
        where ltrim(statement) like any (array['insert into spool_chunks %', 'insert into spool_messages %', 'insert into deliveries %'])`
      expect(prepared).toHaveLength(3)
    } finally {
      await sql.end({ timeout: 5 })
    }
  })

  it('commits large messages alone, never as one statement of several', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const recipient = await resolveRecipient({ sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }, alias.address, 'sender@outside.example')
    const spool = createSpooler({ sql: env.db.sql, boss: env.boss, codec: new SpoolCodec(env.config.secretKey) })
    const big = Buffer.from(`Subject: big\r\n\r\n${'x'.repeat(76)}\r\n`.repeat(Math.ceil(GROUP_COMMIT_MAX_BYTES / 78) + 10))
    const ids = (await Promise.all(Array.from({ length: 4 }, () => spool([recipient], { raw: big, meta })))) as string[]
    expect(await stored(ids)).toEqual({ spool: 4, deliveries: 4, jobs: 4, transactions: 4 })
  })

  it('does not fail the others of a batch when one message can not be stored', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const deps = { sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }
    const good = await resolveRecipient(deps, alias.address, 'sender@outside.example')
    if (good.kind !== 'alias') throw new Error('expected an alias')
    // A target Postgres refuses to store (a NUL byte): that message's rows can not be written.
    const bad = { ...good, alias: { ...good.alias, id: crypto.randomUUID(), forwardTo: 'x\u0000y@mailbox.example' } }
    const spool = createSpooler({ sql: env.db.sql, boss: env.boss, codec: new SpoolCodec(env.config.secretKey) })
    const send = (r: Recipient, i: number) => spool([r], { raw: Buffer.from(`Subject: ${i}\r\n\r\nbody\r\n`), meta })
    const results = await Promise.allSettled([send(good, 0), send(good, 1), send(bad, 2), send(good, 3), send(good, 4)])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    const ids = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value as string] : []))
    const row = await stored(ids)
    expect({ spool: row.spool, deliveries: row.deliveries, jobs: row.jobs }).toEqual({ spool: 4, deliveries: 4, jobs: 4 })
    expect(await env.db.sql`select 1 from deliveries where alias_id = ${bad.alias.id}`).toHaveLength(0)
  })

  it('answers 250 to every concurrent client only once its message is stored and queued, exactly once each', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const clients = Array.from({ length: 12 }, () => nodemailer.createTransport({ host: '127.0.0.1', port: env.mxPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 1 }))
    const responses = await Promise.all(clients.flatMap((c, i) => [0, 1].map((j) => c.sendMail({
      envelope: { from: 'sender@outside.example', to: [alias.address] }, raw: `From: sender@outside.example\r\nSubject: c${i}-${j}\r\n\r\nbody\r\n`,
    }))))
    for (const c of clients) c.close()
    const ids = responses.map((r) => /queued as ([0-9a-f-]{36})/.exec(r.response)![1])
    expect(new Set(ids).size).toBe(24)
    const row = await stored(ids)
    expect({ spool: row.spool, deliveries: row.deliveries, jobs: row.jobs }).toEqual({ spool: 24, deliveries: 24, jobs: 24 })
  })

  it('answers 451 to every client of a batch that rolls back, and stores nothing of it', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const count = async () => (await env.db.sql`select (select count(*) from spool_messages)::int as spool, (select count(*) from pgboss.job)::int as jobs`)[0]
    const before = await count()
    const clients = Array.from({ length: 8 }, () => nodemailer.createTransport({ host: '127.0.0.1', port: env.mxPort, secure: false, ignoreTLS: true }))
    await env.db.sql`alter table deliveries rename to deliveries_away`
    let results: PromiseSettledResult<unknown>[]
    try {
      results = await Promise.allSettled(clients.map((c, i) => c.sendMail({
        envelope: { from: 'sender@outside.example', to: [alias.address] }, raw: `From: sender@outside.example\r\nSubject: down ${i}\r\n\r\nbody\r\n`,
      })))
    } finally {
      await env.db.sql`alter table deliveries_away rename to deliveries`
    }
    for (const c of clients) c.close()
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as { responseCode: number }).responseCode : 250))).toEqual(Array(8).fill(451))
    expect(await count()).toEqual(before)
  })
})

describe('large messages streaming into the spool', () => {
  it('streams at most maxStreams at once; one that waits too long is refused with 451 and the place goes to the next', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const recipient = await resolveRecipient({ sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }, alias.address, 'sender@outside.example')
    const spool = createSpooler({ sql: env.db.sql, boss: env.boss, codec: new SpoolCodec(env.config.secretKey) }, { maxStreams: 1, streamWaitMs: 300 })
    const big = Buffer.alloc(GROUP_COMMIT_MAX_BYTES + 1, 'a')
    const first = spool.writer()
    await first.write(Buffer.from('Subject: first\r\n\r\n'))
    await first.write(big) // past the group-commit size: it streams, and holds the one place
    const second = spool.writer()
    await second.write(Buffer.from('Subject: second\r\n\r\n'))
    await expect(second.write(big)).rejects.toMatchObject({ responseCode: 451, message: expect.stringMatching(/^4\.3\.2 /) })
    await second.abort()
    const third = spool.writer()
    await third.write(Buffer.from('Subject: third\r\n\r\n'))
    const waiting = third.write(big) // waits for the place the first holds
    const firstId = await first.commit([recipient], meta)
    await waiting
    const thirdId = await third.commit([recipient], meta)
    expect(await stored([firstId!, thirdId!])).toMatchObject({ spool: 2, deliveries: 2, jobs: 2 })
  })
})

describe('the sealed chunks of a message', () => {
  it('are stored compressed when that shrinks them, and open to the bytes received', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const recipient = await resolveRecipient({ sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }, alias.address, 'sender@outside.example')
    const codec = new SpoolCodec(env.config.secretKey)
    const spool = createSpooler({ sql: env.db.sql, boss: env.boss, codec })
    const text = Buffer.from(`Subject: minutes\r\n\r\n${'The meeting is moved to Thursday at ten.\r\n'.repeat(250)}`)
    // random bytes (an already compressed attachment) do not shrink: they are sealed as they are
    const noise = Buffer.concat([Buffer.from('Subject: noise\r\n\r\n'), crypto.getRandomValues(new Uint8Array(10_000))])
    for (const raw of [text, noise]) {
      const id = (await spool([recipient], { raw, meta })) as string
      const [chunk] = await env.db.sql<{ sealed: Buffer; size: number }[]>`
        select c.sealed, s.size from spool_chunks c join spool_messages s on s.id = c.spool_id where c.spool_id = ${id} and c.seq = 0`
      expect(codec.openChunk(id, 0, true, chunk.sealed)).toEqual(raw)
      if (raw === text) expect(chunk.sealed.length).toBeLessThan(chunk.size / 4)
      else expect(chunk.sealed.length).toBeGreaterThanOrEqual(chunk.size)
    }
  })
})
