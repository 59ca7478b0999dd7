// Inbox search (issue 26, target: header search p95 ≤ 50 ms at 100,000 messages): one user with
// 100,000 stored messages across four accounts (another user with 20,000 beside them), typical
// searches through GET /api/emails?by=conversation&q=… of the real web process, p50/p95 of each.
// The accounts' folders have no sync cursor yet, so no IMAP server is asked: this is the stored
// part (subject, sender, recipients, the operators), the part Postgres answers. Then the same with
// the trigram indexes (migrations 0063 and 0071) dropped, to show what they are for. A search whose page came from the
// newest mail has no total ("many"): that is the point of looking there first.
import { randomBytes, createHash } from 'node:crypto'
import { createSql, type Sql } from '../../db/client.ts'
import { insertEmailProvider } from '../../db/email-providers.ts'
import { upsertFolder } from '../../db/mailbox-folders.ts'
import { insertSession } from '../../db/sessions.ts'
import { insertUser } from '../../db/users.ts'
import { startWebServer } from '../testing/web-server.ts'
import { benchDatabase } from './bench-db.ts'
import { ms, percentile, printTable } from './bench-table.ts'

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000)
const ACCOUNTS = 4
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 40)
const QUERIES = [
  'invoice', 'quarterly report', 'from:alice', 'to:team', 'subject:project', 'is:unread invoice', 'has:attachment from:bob',
  'meeting after:2026-01-01', 'xylophone', 'liddell', '"weekly deals"', 'is:starred',
]

/** Subjects of 3 words from a list of 60 and a number, 400 senders, dates over two years: a mailbox as people have one. */
export async function seed(sql: Sql, userId: string, label: string, messages: number): Promise<void> {
  for (let a = 0; a < ACCOUNTS; a++) {
    const providerId = crypto.randomUUID()
    await insertEmailProvider(sql, { id: providerId, userId, provider: 'other', email: `${label}${a}@bench.example`, credentials: Buffer.from('unused') })
    const folder = await upsertFolder(sql, providerId, 'INBOX', '\\Inbox', true)
    await sql`
      with words as (select array['invoice','quarterly','report','meeting','lunch','budget','project','update','travel','release','review','garden',
        'schedule','privacy','figures','team','offsite','contract','renewal','receipt','order','shipping','delivery','newsletter','weekly','monthly',
        'deals','sale','ticket','booking','flight','hotel','dinner','party','birthday','photos','family','school','homework','doctor','appointment',
        'bank','statement','payment','reminder','password','security','alert','login','account','welcome','confirm','subscription','trial',
        'webinar','conference','slides','notes','draft','feedback'] as w),
      names as (select array['Alice Liddell','Bob Stone','Carol Danvers','Dana Scully','Erin Hale','Frank Castle','Grace Hopper','Henry Ford',
        'Ivy Lane','Jack Ryan'] as n)
      insert into received_emails (user_id, provider_id, folder_id, uid, message_id, thread_id, thread_subject, subject, from_address, from_name,
        to_address, cc_addresses, received_at, size, is_read, is_starred, has_attachments)
      select ${userId}, ${providerId}, ${folder.id}, g, 'm' || g || '.' || ${providerId} || '@bench.example',
        md5(${providerId} || (g / 3)::text)::uuid,
        lower(s.subject), s.subject,
        lower(split_part(n.n[1 + (g * 7) % 10], ' ', 1)) || (g % 40) || '@' || (array['example.com','mail.example','corp.example','shop.example'])[1 + g % 4],
        n.n[1 + (g * 7) % 10] || case when g % 40 = 0 then '' else ' ' || (g % 40) end,
        ${`${label}${a}@bench.example`} || case when g % 9 = 0 then ', team@corp.example' else '' end,
        case when g % 13 = 0 then 'Grace Hopper <grace@corp.example>' else '' end,
        timestamptz '2024-12-01' + make_interval(secs => (g::float8 / ${messages / ACCOUNTS}) * 6.3e7 + ${a} * 61),
        2000 + g % 50000, g % 10 <> 0, g % 50 = 0, g % 11 = 0
      from generate_series(1, ${messages / ACCOUNTS}) g, words w, names n,
        lateral (select initcap(w.w[1 + (g * 13) % 60]) || ' ' || w.w[1 + (g * 31 + 7) % 60] || ' ' || w.w[1 + (g * 17 + 3) % 60] || ' #' || g as subject) s`
  }
}

async function signedIn(sql: Sql, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await insertSession(sql, userId, createHash('sha256').update(token).digest(), { browser: 'bench', os: 'bench' })
  return `veilmail_session=${token}`
}

async function measure(url: string, cookie: string, queries = QUERIES): Promise<{ query: string; p50: number; p95: number; rows: number; total: number | string }[]> {
  const out = []
  for (const query of queries) {
    const times: number[] = []
    let page: { emails: unknown[]; total?: number } | undefined
    for (let i = 0; i < ROUNDS + 3; i++) {
      const started = performance.now()
      const res = await fetch(`${url}/api/emails?by=conversation&limit=50&offset=0&q=${encodeURIComponent(query)}`, { headers: { cookie } })
      if (!res.ok) throw new Error(`${query}: HTTP ${res.status} ${await res.text()}`)
      page = await res.json()
      if (i >= 3) times.push(performance.now() - started) // the first three warm the plan cache and the pool
    }
    times.sort((a, b) => a - b)
    out.push({ query, p50: percentile(times, 50), p95: percentile(times, 95), rows: page!.emails.length, total: page!.total ?? 'many (uncounted)' })
  }
  return out
}

export async function run(): Promise<void> {
  const db = await benchDatabase()
  const sql = createSql(db.url, { max: 4 })
  let server: Awaited<ReturnType<typeof startWebServer>> | undefined
  try {
    const user = (await insertUser(sql, { email: 'searcher@bench.example', authMethod: 'email', emailVerified: true }))!
    const neighbour = (await insertUser(sql, { email: 'neighbour@bench.example', authMethod: 'email', emailVerified: true }))!
    const seeding = performance.now()
    await seed(sql, user.id, 'searcher', MESSAGES)
    await seed(sql, neighbour.id, 'neighbour', MESSAGES / 5)
    await sql`vacuum analyze received_emails`
    console.log(`seeded ${MESSAGES + MESSAGES / 5} messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`)
    server = await startWebServer(db.url, { METRICS_PORT: '0', LOG_LEVEL: 'warn' })
    const cookie = await signedIn(sql, user.id)
    // the inbox itself, no search: its first page and the pager's total (conversation_counts, migration 0071)
    const [inbox] = await measure(server.url, cookie, [''])
    const indexed = await measure(server.url, cookie)
    await sql`drop index received_emails_search_idx`
    await sql`drop index received_emails_search_attachments_idx`
    await sql`analyze received_emails`
    const scanned = await measure(server.url, cookie)
    const all = (rows: { p95: number }[]) => rows.map((r) => r.p95).sort((a, b) => a - b)
    printTable(`Inbox search (npm run bench -- search): ${MESSAGES.toLocaleString('en')} messages of one user over ${ACCOUNTS} accounts, GET /api/emails?by=conversation&limit=50&q=…, ${ROUNDS} rounds each`, [
      ...indexed.map((r, i): [string, string, string] => [
        `q=${r.query} (${r.total} conversations)`, `p50 ${ms(r.p50)}, p95 ${ms(r.p95)}`, `without the trigram indexes: p50 ${ms(scanned[i].p50)}, p95 ${ms(scanned[i].p95)}`,
      ]),
      ['worst p95 of the typical searches', ms(Math.max(...all(indexed))), '≤ 50 ms'],
      [`no search, the inbox's first page (${inbox.total} conversations)`, `p50 ${ms(inbox.p50)}, p95 ${ms(inbox.p95)}`, ''],
    ])
  } finally {
    await server?.stop()
    await sql.end()
    await db.close()
  }
}
