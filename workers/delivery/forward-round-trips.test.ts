// Round trips to Postgres per forward (the delivery process is what limits `npm run bench -- mx` end to end). The
// delivery's connections run through a counting TCP proxy: a round trip is a burst of client bytes
// after the server answered that runs statements (Bind or Query messages), so statements sent
// together (pipelined) count once, and a statement's first preparation on a connection (Parse and
// Describe only) does not count: in a running process every statement is prepared already. It
// counts the transactions begun too.
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSql, splitSocketDir, type Sql } from '../../db/client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { createDeliveryDeps } from './delivery-deps.ts'
import { startDeliveryWorker } from './delivery-worker.ts'
import { forwardEmailHandler } from './forward-email.ts'
import { queues } from '../../db/queues.ts'

let env: MailEnv
let proxy: net.Server
let sql: Sql
let roundTrips = 0
let begins = 0
let statements = 0

/**
 * Whether the client's bytes hold a Bind or a simple Query, how many (statements run), and how many transactions they begin
 * (PostgreSQL protocol: type byte, int32 length; postgres.js sends BEGIN as a simple Query).
 */
function messagesIn(data: Buffer): { runs: boolean; begins: number; statements: number } {
  const found = { runs: false, begins: 0, statements: 0 }
  for (let at = 0; at + 5 <= data.length; at += 1 + data.readInt32BE(at + 1)) {
    if (data[at] === 0x42 || data[at] === 0x51) {
      found.runs = true // 'B', 'Q'
      found.statements++
    }
    if (data[at] === 0x51 && /^begin\b/i.test(data.toString('latin1', at + 5, at + 11))) found.begins++
  }
  return found
}

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  const target = new URL(env.db.url)
  proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port), target.hostname)
    let answered = true
    client.on('data', (data) => {
      const { runs, begins: begun, statements: run } = messagesIn(data)
      begins += begun
      statements += run
      if (answered && runs) {
        roundTrips++
        answered = false
      }
      server.write(data)
    })
    server.on('data', (data) => {
      answered = true
      client.write(data)
    })
    client.on('close', () => server.destroy())
    server.on('close', () => client.destroy())
    client.on('error', () => {})
    server.on('error', () => {})
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  // through the counting proxy, not the server's Unix socket
  const url = new URL(splitSocketDir(env.db.url).rest)
  url.hostname = '127.0.0.1'
  url.port = String((proxy.address() as net.AddressInfo).port)
  sql = createSql(url.toString(), { max: 4, name: 'round-trips' })
  await Promise.all([1, 2, 3, 4].map(() => sql`select pg_sleep(0.05)`)) // all connected: the startup exchanges are not the forward's
})
afterAll(async () => {
  await sql?.end({ timeout: 5 })
  proxy?.close()
  await env?.close()
})

it('forwards a message to a confirmed mailbox in at most 3 round trips to Postgres (4 from a new contact), sending it once', async () => {
  const alias = await env.createAlias('me@real.test')
  const forward = forwardEmailHandler(createDeliveryDeps(sql, env.config, { resolver: env.resolver }))
  const deliveryOf = async (subject: string, from?: string) => {
    await env.send({ to: alias.address, subject, from, headers: { 'In-Reply-To': `<before-${subject.replace(/ /g, '-')}@outside.example>` } })
    const [{ id }] = await env.db.sql<{ id: string }[]>`select d.id from deliveries d where d.alias_id = ${alias.id} and d.status = 'pending'`
    return id
  }
  // the sender's reverse alias is made on the first, and each statement prepared on both connections
  for (let i = 0; i < 4; i++) await forward({ deliveryId: await deliveryOf(`warm ${i}`) })
  await env.db.sql`delete from thread_message_ids where alias_id = ${alias.id}`
  const id = await deliveryOf('round trips')

  roundTrips = 0
  await forward({ deliveryId: id })
  // begin; the lock with the open read (alias, message, first chunk, target confirmed, owner's
  // key); the finish (marks, counters, thread ids, spool cleanup) with the commit. The sender's
  // reverse alias is known to the process already.
  expect(roundTrips).toBeLessThanOrEqual(3)
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: round trips'))).toHaveLength(1)
  // the thread ids went in with the finish: a reply to this message threads
  const [{ n }] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from thread_message_ids where alias_id = ${alias.id}`
  expect(n).toBe(2)

  // a second copy of the job finds it done: nothing sent
  roundTrips = 0
  await forward({ deliveryId: id })
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: round trips'))).toHaveLength(1)

  // a new contact: its reverse alias is made in one more round trip, and the forward names it
  const fresh = await deliveryOf('new contact', 'Nia New <nia@elsewhere.example>')
  roundTrips = 0
  await forward({ deliveryId: fresh })
  expect(roundTrips).toBeLessThanOrEqual(4)
  const sent = env.relay.messages.find((m) => m.raw.includes('Subject: new contact'))!
  const [made] = await env.db.sql<{ localPart: string; domain: string }[]>`
    select local_part, domain from reverse_aliases where alias_id = ${alias.id} and contact_address = 'nia@elsewhere.example'`
  const from = sent.raw.toString('latin1').replace(/\r\n[ \t]+/g, ' ').match(/^From: .*$/m)?.[0]
  expect(from).toContain(`<${made.localPart}@${made.domain}>`)
})

it('leaves the delivery pending when a statement of the finish fails: the COMMIT sent behind them rolls back', async () => {
  const alias = await env.createAlias('finish@real.test')
  const forward = forwardEmailHandler(createDeliveryDeps(sql, env.config))
  await env.send({ to: alias.address, subject: 'finish fails' })
  const [{ id, spoolId }] = await env.db.sql<{ id: string; spoolId: string }[]>`select id, spool_id from deliveries where alias_id = ${alias.id}`
  // the alias's counter refuses the bump, as a broken table or a full disk would refuse a statement
  await env.db.sql.unsafe(`create function refuse_counter() returns trigger language plpgsql as $$ begin raise exception 'counter refused'; end $$`)
  await env.db.sql.unsafe(`create trigger refuse_counter before insert or update on alias_counters for each row when (new.alias_id = '${alias.id}') execute function refuse_counter()`)
  try {
    await expect(forward({ deliveryId: id })).rejects.toThrow('counter refused')
  } finally {
    await env.db.sql.unsafe('drop trigger refuse_counter on alias_counters; drop function refuse_counter()')
  }
  // sent, but nothing of the finish committed: still pending, the message still spooled, no thread ids
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: finish fails'))).toHaveLength(1)
  const [delivery] = await env.db.sql<{ status: string; attempts: number }[]>`select status, attempts from deliveries where id = ${id}`
  expect(delivery).toEqual({ status: 'pending', attempts: 1 }) // the failed attempt is recorded
  expect(await env.db.sql`select 1 from spool_messages where id = ${spoolId}`).toHaveLength(1)
  expect(await env.db.sql`select 1 from thread_message_ids where alias_id = ${alias.id}`).toHaveLength(0)

  // the retry sends it again (same Message-ID, receivers dedupe) and this time it is marked
  await forward({ deliveryId: id })
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: finish fails'))).toHaveLength(2)
  expect(await env.db.sql`select 1 from spool_messages where id = ${spoolId}`).toHaveLength(0) // its last delivery ended
})

it('runs the forwards of one batch in one transaction, each sent once', async () => {
  const alias = await env.createAlias('group@real.test')
  const forward = forwardEmailHandler(createDeliveryDeps(sql, env.config, { resolver: env.resolver }))
  /** Three forwards as `work` runs a fetched batch (each handler called in the same turn of the event loop), and a second job for one of them (pg-boss retried it after an expiry). */
  const batch = async (name: string) => {
    for (const letter of 'abc') await env.send({ to: alias.address, subject: `${name} ${letter}` })
    const ids = (await env.db.sql<{ id: string }[]>`select id from deliveries where alias_id = ${alias.id} and status = 'pending'`).map((d) => d.id)
    expect(ids).toHaveLength(3)
    begins = 0
    await Promise.all([...ids, ids[0]].map((deliveryId) => forward({ deliveryId })))
    return begins
  }
  // the sender's reverse alias is made by a batch before
  await batch('warm group')
  // one transaction for the three, so one BEGIN, one round trip for the locks and reads and one for
  // the finishes and the COMMIT, and one commit (a WAL flush) instead of three of each; and one of
  // its own for the second job, which waits for the group's lock on the row and finds it done
  expect(await batch('group')).toBe(2)
  for (const letter of 'abc') expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: group ${letter}`))).toHaveLength(1)
  expect(await env.db.sql`select 1 from deliveries where alias_id = ${alias.id}`).toHaveLength(0) // each sent, its message gone with it
  const [{ forwarded }] = await env.db.sql<{ forwarded: number }[]>`select sum(forwarded)::int as forwarded from alias_counters where alias_id = ${alias.id}`
  expect(forwarded).toBe(6)
})

it('runs a batch of four forwards in as many statements as one forward: one of each kind for the batch', async () => {
  const alias = await env.createAlias('statements@real.test')
  const forward = forwardEmailHandler(createDeliveryDeps(sql, env.config, { resolver: env.resolver }))
  /** The statements (BEGIN and COMMIT included) of `count` forwards run as one fetched batch. */
  const batch = async (name: string, count: number) => {
    for (let i = 0; i < count; i++) await env.send({ to: alias.address, subject: `${name} ${i}`, headers: { 'In-Reply-To': `<${name.replace(/ /g, '-')}-${i}@outside.example>` } })
    const ids = (await env.db.sql<{ id: string }[]>`select id from deliveries where alias_id = ${alias.id} and status = 'pending'`).map((d) => d.id)
    expect(ids).toHaveLength(count)
    statements = 0
    await Promise.all(ids.map((deliveryId) => forward({ deliveryId })))
    for (let i = 0; i < count; i++) expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: ${name} ${i}\r\n`))).toHaveLength(1)
    return statements
  }
  // the sender's reverse alias is made, and every statement prepared, by batches before
  await batch('warm one', 1)
  await batch('warm four', 4)
  const one = await batch('statements one', 1)
  const four = await batch('statements four', 4)
  expect(four).toBe(one)
  // eleven since the author contact's forwards and last mail are counted (issue 30)
  expect(one).toBeLessThanOrEqual(11)
  expect(await env.db.sql`select 1 from deliveries where alias_id = ${alias.id}`).toHaveLength(0) // each sent, its message gone with it
  const [{ n }] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from thread_message_ids where alias_id = ${alias.id}`
  expect(n).toBe(20) // each forward's own Message-ID and the one it replies to
})

it('runs batches that forward to the same alias at once without a deadlock: each forward sent once, every count kept', async () => {
  const alias = await env.createAlias('busy@real.test')
  // connections as the delivery process sizes its pool
  const busySql = createSql(env.db.url, { max: 8 * 5 + 4, name: 'busy' })
  const forward = forwardEmailHandler(createDeliveryDeps(busySql, env.config, { resolver: env.resolver }))
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 16; i++) await env.send({ to: alias.address, subject: `busy ${round}.${i}` })
    const ids = (await env.db.sql<{ id: string }[]>`select id from deliveries where alias_id = ${alias.id} and status = 'pending'`).map((d) => d.id)
    expect(ids).toHaveLength(16)
    // four batches of four in flight together (a batch is the handlers called in one turn of the event loop)
    const running: Promise<void>[] = []
    for (let b = 0; b < 4; b++) {
      running.push(...ids.slice(b * 4, b * 4 + 4).map((deliveryId) => forward({ deliveryId })))
      await new Promise((resolve) => setImmediate(resolve))
    }
    // a deadlock aborts a batch: its forwards reject (to be retried, sent a second time)
    expect((await Promise.allSettled(running)).filter((r) => r.status === 'rejected')).toHaveLength(0)
  }
  await busySql.end({ timeout: 5 })
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 16; i++) expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: busy ${round}.${i}\r\n`))).toHaveLength(1)
  }
  const [{ forwarded }] = await env.db.sql<{ forwarded: number }[]>`select sum(forwarded)::int as forwarded from alias_counters where alias_id = ${alias.id}`
  expect(forwarded).toBe(48)
}, 120_000)

it('rolls back every forward of a batch when a statement of one finish fails: both stay pending and both jobs are retried', async () => {
  const aliases = [await env.createAlias('group-one@real.test'), await env.createAlias('group-two@real.test')]
  const forward = forwardEmailHandler(createDeliveryDeps(sql, env.config, { resolver: env.resolver }))
  for (const [i, alias] of aliases.entries()) await env.send({ to: alias.address, subject: `group rollback ${i}` })
  // the finishes leave in message-id order: the second one's statement fails after the first's went through
  const rows = await env.db.sql<{ id: string; aliasId: string }[]>`
    select id, alias_id from deliveries where alias_id = any(${aliases.map((a) => a.id)}) order by spool_id`
  const ids = rows.map((r) => r.id)
  await env.db.sql.unsafe(`create function refuse_group_counter() returns trigger language plpgsql as $$ begin raise exception 'counter refused'; end $$`)
  await env.db.sql.unsafe(`create trigger refuse_group_counter before insert or update on alias_counters for each row when (new.alias_id = '${rows[1].aliasId}') execute function refuse_group_counter()`)
  let results: PromiseSettledResult<void>[]
  try {
    // one batch: both in one transaction
    results = await Promise.allSettled(ids.map((deliveryId) => forward({ deliveryId })))
  } finally {
    await env.db.sql.unsafe('drop trigger refuse_group_counter on alias_counters; drop function refuse_group_counter()')
  }
  // both were sent; neither mark committed, so both jobs fail and are retried (sent again with the same Message-ID)
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
  const sent = (i: number) => env.relay.messages.filter((m) => m.raw.includes(`Subject: group rollback ${i}`)).length
  expect([sent(0), sent(1)]).toEqual([1, 1])
  const states = await env.db.sql<{ status: string; attempts: number }[]>`select status, attempts from deliveries where id = any(${ids})`
  expect(states).toEqual([{ status: 'pending', attempts: 1 }, { status: 'pending', attempts: 1 }])
  await Promise.all(ids.map((deliveryId) => forward({ deliveryId })))
  expect([sent(0), sent(1)]).toEqual([2, 2])
  expect(await env.db.sql`select 1 from deliveries where id = any(${ids})`).toHaveLength(0)
})

it('fetches and completes due forwards to mailboxes in batches: one fetch and one completion statement for four forwards', async () => {
  // the jobs of the forwards above were run by hand, not by a worker: none of them may join a batch here
  await env.db.sql`delete from pgboss.job where name = ${queues.forwardEmail.name}`
  const alias = await env.createAlias('batch@real.test')
  for (let i = 0; i < 8; i++) await env.send({ to: alias.address, subject: `batch ${i}` })
  const deliveries = (await env.db.sql<{ id: string }[]>`select id from deliveries where alias_id = ${alias.id}`).map((d) => d.id)
  expect(deliveries).toHaveLength(8)

  // eight due jobs before any worker runs; with DELIVERY_CONCURRENCY 8 the worker fetches eight at a time
  // connections as the delivery process sizes its pool (each forward holds one for its row lock)
  const workerSql = createSql(env.db.url, { max: 8 * 5 + 4, name: 'batches' })
  const stop = await startDeliveryWorker(env.boss, createDeliveryDeps(workerSql, env.config), { concurrency: 8, pollSeconds: 600 })
  try {
    await expect.poll(() => env.relay.messages.filter((m) => m.raw.includes('Subject: batch ')).length, { timeout: 30_000 }).toBe(8)
    const jobs = () => env.db.sql<{ state: string; startedOn: Date; completedOn: Date | null }[]>`
      select state, started_on, completed_on from pgboss.job where name = ${queues.forwardEmail.name} and data->>'deliveryId' = any(${deliveries})`
    await expect.poll(async () => (await jobs()).filter((j) => j.state === 'completed').length, { timeout: 10_000 }).toBe(8)
    // now() is the time its statement's transaction started: jobs that share it were fetched (or
    // completed) by one statement. One job per statement would show eight of each.
    const distinct = (times: (Date | null)[]) => new Set(times.map((t) => t?.toISOString())).size
    const rows = await jobs()
    expect(distinct(rows.map((j) => j.startedOn))).toBeLessThanOrEqual(2)
    expect(distinct(rows.map((j) => j.completedOn))).toBeLessThanOrEqual(2)
  } finally {
    await stop()
    await env.boss.offWork(queues.forwardEmail.name)
    await workerSql.end({ timeout: 5 })
  }
}, 60_000)
