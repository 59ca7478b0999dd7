// Round trips to Postgres per forward (the delivery process is what limits `npm run bench -- mx` end to end). The
// delivery's connections run through a counting TCP proxy: a round trip is a burst of client bytes
// after the server answered that runs statements (Bind or Query messages), so statements sent
// together (pipelined) count once, and a statement's first preparation on a connection (Parse and
// Describe only) does not count: in a running process every statement is prepared already.
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSql, type Sql } from '../../db/client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { createDeliveryDeps } from './delivery-deps.ts'
import { forwardEmailHandler } from './forward-email.ts'

let env: MailEnv
let proxy: net.Server
let sql: Sql
let roundTrips = 0

/** Whether the client's bytes hold a Bind or a simple Query (PostgreSQL protocol: type byte, int32 length). */
function runsStatements(data: Buffer): boolean {
  for (let at = 0; at + 5 <= data.length; at += 1 + data.readInt32BE(at + 1)) {
    if (data[at] === 0x42 || data[at] === 0x51) return true // 'B', 'Q'
  }
  return false
}

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  const target = new URL(env.db.url)
  proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port), target.hostname)
    let answered = true
    client.on('data', (data) => {
      if (answered && runsStatements(data)) {
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
  const url = new URL(env.db.url)
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

it('forwards a message to a confirmed mailbox in at most 6 round trips to Postgres, sending it once', async () => {
  const alias = await env.createAlias('me@real.test')
  const forward = forwardEmailHandler(createDeliveryDeps(sql, env.config, { resolver: env.resolver }))
  const deliveryOf = async (subject: string) => {
    await env.send({ to: alias.address, subject, headers: { 'In-Reply-To': `<before-${subject.replace(/ /g, '-')}@outside.example>` } })
    const [{ id }] = await env.db.sql<{ id: string }[]>`select d.id from deliveries d where d.alias_id = ${alias.id} and d.status = 'pending'`
    return id
  }
  // the sender's reverse alias is made on the first, and each statement prepared on both connections
  for (let i = 0; i < 4; i++) await forward({ deliveryId: await deliveryOf(`warm ${i}`) })
  await env.db.sql`delete from thread_message_ids where alias_id = ${alias.id}`
  const id = await deliveryOf('round trips')

  roundTrips = 0
  await forward({ deliveryId: id })
  // begin, lock, the open read (alias, message, first chunk, target confirmed), reverse aliases,
  // the finish (marks, counters, thread ids, spool cleanup), commit
  expect(roundTrips).toBeLessThanOrEqual(6)
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: round trips'))).toHaveLength(1)
  // the thread ids went in with the finish: a reply to this message threads
  const [{ n }] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from thread_message_ids where alias_id = ${alias.id}`
  expect(n).toBe(2)

  // a second copy of the job finds it done: one round trip to lock, nothing sent
  roundTrips = 0
  await forward({ deliveryId: id })
  expect(env.relay.messages.filter((m) => m.raw.includes('Subject: round trips'))).toHaveLength(1)
})
