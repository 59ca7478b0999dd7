// Initial sync of a 10,000-message mailbox from a private Dovecot (2–50 KB, one in fifty with a
// 30 KB attachment; text of made-up words, about as compressible as mail): Veilmail's `sync`
// process (account added through the API → counts show all 10,000) against `mbsync` (isync)
// copying the same mailbox to a maildir, in the same run, with the sync process's peak RSS.
// Then an incremental sync (100 new messages and 500 flag changes made by another client, Sync
// pressed → job done), and the API with 100,000 more stored
// messages for the same user (a list page, the counts, a conversation opened: p95 of each).
// Skipped with a message when dovecot or mbsync is missing. BENCH_SYNC_PROFILE=dir writes a
// CPU profile of the sync process there (node --cpu-prof). BENCH_SYNC_ONLY=initial stops after
// the initial sync's table (no incremental or API part), with the sync process's CPU time.
// BENCH_SYNC_ONLY=api runs the API part alone: no Dovecot or sync process, the 10,100 messages
// a sync would have left stored as the 100,000 are, in an account of their own.
import { execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createApp } from '../../api/app.ts'
import { createSql, type Sql } from '../../db/client.ts'
import { insertEmailProvider } from '../../db/email-providers.ts'
import { upsertFolder } from '../../db/mailbox-folders.ts'
import { insertReceivedEmails, type NewReceivedEmail } from '../../db/received-emails.ts'
import { loadConfig, type Config } from '../../lib/config.ts'
import { receivedMailBox } from '../../lib/received-mail-box.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'
import { createBoss, createQueues } from '../../db/queues.ts'
import { ApiClient } from '../testing/api-client.ts'
import { readProcfile } from '../procfile.ts'
import { attachMailbox } from '../testing/mailbox.ts'
import { DOVECOT, startDovecot } from '../testing/dovecot.ts'
import { benchDatabase } from './bench-db.ts'
import { ms, percentile, printTable, sleep } from './bench-table.ts'
import { cpuMs, mainThreadCpuMs, procStat, ticksMs } from './process-cpu.ts'

const MESSAGES = 10_000
/** messages stored for the API figures (issue 13: 100,000 per user) */
const STORED = 100_000
const MBSYNC = '/usr/bin/mbsync'
const SECRET_KEY = randomBytes(32).toString('base64url')

/** A pseudo-random number generator (deterministic: the same mailbox every run). */
function lcg(seed: number): () => number {
  let x = seed
  return () => (x = (x * 1_103_515_245 + 12_345) % 2_147_483_648)
}

/** 1,000 made-up words: text drawn from them compresses about as much as mail does (3× with zstd), not 100× as a repeated line does. */
const WORDS = (() => {
  const next = lcg(7)
  return Array.from({ length: 1000 }, () => Array.from({ length: 2 + (next() % 8) }, () => String.fromCharCode(97 + (next() % 26))).join(''))
})()

function message(i: number): Buffer {
  const size = 2000 + ((i * 7919) % 48_000)
  const next = lcg(i + 1)
  let text = `Benchmark message ${i}.`
  while (text.length < size) text += ` ${WORDS[next() % WORDS.length]}${next() % 11 === 0 ? '.' : ''}`
  const body = text.slice(0, size).replace(/(.{1,76})(?: |$)/g, '$1\r\n')
  const head = `From: Sender ${i % 97} <s${i % 97}@example.org>\r\nTo: owner@mail.test\r\nSubject: Bench message ${i}\r\n` +
    `Date: ${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString()}\r\nMessage-ID: <bench-${i}@example.org>\r\nMIME-Version: 1.0\r\n`
  if (i % 50 !== 0) return Buffer.from(`${head}Content-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`)
  const attachment = randomBytes(22_500).toString('base64').replace(/(.{76})/g, '$1\r\n')
  return Buffer.from(`${head}Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n` +
    `--b${i}\r\nContent-Type: application/octet-stream; name="data-${i}.bin"\r\nContent-Disposition: attachment; filename="data-${i}.bin"\r\n` +
    `Content-Transfer-Encoding: base64\r\n\r\n${attachment}\r\n--b${i}--\r\n`)
}

export async function run(): Promise<void> {
  if (process.env.BENCH_SYNC_ONLY === 'api') return runApiOnly()
  if (!existsSync(DOVECOT) || !existsSync(MBSYNC)) {
    console.log(`\nSync benchmark skipped: needs ${DOVECOT} (dovecot-imapd) and ${MBSYNC} (isync)`)
    return
  }
  const dovecot = await startDovecot()
  const work = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-sync-'))
  const db = await benchDatabase()
  try {
    const login = 'owner@mail.test'
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: MESSAGES }, (_, i) => ({ raw: message(i) })))
    // Dovecot indexes the maildir before either client is timed
    const indexer = await dovecot.client(login)
    await indexer.mailboxOpen('INBOX')
    for await (const _ of indexer.fetch('1:*', { uid: true, flags: true, size: true })) void _
    await indexer.logout()

    // mbsync, as in shared/bench/anchors.md
    mkdirSync(path.join(work, 'mail'))
    writeFileSync(path.join(work, 'rc'), `IMAPAccount bench\nHost localhost\nPort ${dovecot.port}\nUser ${login}\nPass ${password}\nSSLType IMAPS\nCertificateFile ${dovecot.caFile}\n\n` +
      `IMAPStore remote\nAccount bench\n\nMaildirStore local\nPath ${work}/mail/\nInbox ${work}/mail/INBOX\n\n` +
      `Channel inbox\nFar :remote:INBOX\nNear :local:INBOX\nCreate Near\nSync Pull\nSyncState *\n`)
    let cpuBefore = descendantsCpuMs()
    let started = performance.now()
    await promisify(execFile)(MBSYNC, ['-c', path.join(work, 'rc'), 'inbox'], { maxBuffer: 1 << 24 })
    const mbsyncMs = performance.now() - started
    let cpuAfter = descendantsCpuMs()
    const mbsyncCpu = `mbsync ${cpuDelta(cpuAfter, cpuBefore, 'mbsync')} s + Dovecot ${cpuDelta(cpuAfter, cpuBefore, 'dovecot')} s`

    // Veilmail: the API adds the account, a real sync process syncs it, the counts show it all
    const config = loadConfig({ NODE_ENV: 'test', SECRET_KEY, DATABASE_URL: db.url, DATA_DIR: work, ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' })
    const sql = createSql(db.url, { max: 4 })
    const boss = createBoss(db.url, { max: 2, maintenance: false })
    await boss.start()
    await createQueues(boss)
    const app = attachMailbox(createApp({ sql, boss, config }), { sql, secretKey: config.secretKey })
    const user = new ApiClient(app)
    const { user: account } = await user.register()
    const profileDir = process.env.BENCH_SYNC_PROFILE
    // the sync process as the Procfile runs it (its Node options included), from the repository's root
    const [, ...procfileArgs] = readProcfile().find((p) => p.name === 'sync')!.argv
    const child = spawn(process.execPath, [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : []), ...procfileArgs], {
      cwd: path.join(import.meta.dirname, '..', '..'),
      env: {
        PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, DATA_DIR: work, SECRET_KEY, ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: dovecot.caFile,
        // only the syncs the benchmark asks for: no schedule tick, no IDLE wake-up (the bench reads /api/emails) in the middle of one
        SYNC_INTERVAL_SECONDS: '86400', SYNC_IDLE_CONNECTIONS: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      await sleep(1500) // the process is up and idle before the clock starts
      const syncCpuBefore = cpuMs(child.pid!)
      const syncMainCpuBefore = mainThreadCpuMs(child.pid!)
      const idleKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0)
      cpuBefore = descendantsCpuMs()
      started = performance.now()
      const res = await user.json(user.post('/api/email-providers', {
        provider: 'other', email: login,
        encryptedCredentials: Buffer.from(JSON.stringify({ email: login, password, host: dovecot.host, port: dovecot.port, secure: true })).toString('base64'),
      }))
      if (res.status !== 202) throw new Error(`adding the account failed: ${res.status}`)
      const providerId = res.body.provider.id as string
      for (;;) {
        const counts = await (await user.get('/api/emails/counts')).json() as { total: number }
        if (counts.total >= MESSAGES) break
        await sleep(50)
      }
      const veilmailMs = performance.now() - started
      const syncCpuMs = cpuMs(child.pid!) - syncCpuBefore
      const syncMainCpuMs = mainThreadCpuMs(child.pid!) - syncMainCpuBefore
      cpuAfter = descendantsCpuMs()
      const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0)
      printTable(`Initial sync of ${MESSAGES.toLocaleString('en')} messages (npm run bench -- sync)`, [
        ['mbsync (isync) to a maildir', `${(mbsyncMs / 1000).toFixed(1)} s`, ''],
        ['Veilmail: account added → counts show all', `${(veilmailMs / 1000).toFixed(1)} s`, '≤ 1.0× mbsync'],
        ['ratio Veilmail / mbsync', `${(veilmailMs / mbsyncMs).toFixed(2)}×`, '≤ 1.0'],
        ['sync process peak RSS', `${(peakKb / 1024).toFixed(0)} MB`, '≤ 256 MB'],
        ['sync process RSS when idle, before the account is added', `${(idleKb / 1024).toFixed(0)} MB`, ''],
        ['sync process CPU (user + system) per message', `${(syncCpuMs / MESSAGES).toFixed(2)} ms/message`, ''],
        ['  of which its main (JavaScript) thread', `${(syncMainCpuMs / MESSAGES).toFixed(2)} ms/message`, ''],
        ['CPU of the mbsync run', mbsyncCpu, ''],
        ['CPU of the Veilmail run', `sync ${syncCpuMs / 1000} s + Dovecot ${cpuDelta(cpuAfter, cpuBefore, 'dovecot')} s + Postgres ${cpuDelta(cpuAfter, cpuBefore, 'postgres')} s`, ''],
        ['load average (1 min) at the end', os.loadavg()[0].toFixed(2), ''],
      ])
      if (process.env.BENCH_SYNC_ONLY === 'initial') return

      // Incremental: another client adds 100 messages and changes the flags of 500, then Sync
      await waitForIdle(sql, providerId)
      const other = await dovecot.client(login)
      try {
        await other.mailboxOpen('INBOX')
        await other.messageFlagsAdd('1:250', ['\\Seen'], { uid: true })
        await other.messageFlagsAdd('251:500', ['\\Flagged'], { uid: true })
      } finally {
        await other.logout()
      }
      await dovecot.append(login, Array.from({ length: 100 }, (_, i) => ({ raw: message(MESSAGES + i) })))
      started = performance.now()
      const sync = await user.json(user.post(`/api/email-providers/${providerId}/sync`))
      let job: { status: string; syncResult: { newEmailsCount: number } }
      for (;;) {
        job = (await user.json(user.get(`/api/email-providers/${providerId}/sync-jobs/${sync.body.jobId}`))).body
        if (job.status === 'done' || job.status === 'failed') break
        await sleep(20)
      }
      const pressMs = performance.now() - started
      const [run] = await sql<{ ms: number }[]>`select extract(epoch from finished_at - started_at)::float8 * 1000 as ms from mailbox_sync_jobs where id = ${sync.body.jobId}`
      const [flags] = await sql<{ read: number; starred: number }[]>`
        select count(*) filter (where is_read)::int as read, count(*) filter (where is_starred)::int as starred from received_emails where provider_id = ${providerId}`
      printTable('Incremental sync: 100 new messages, 500 flag changes by another client', [
        ['Sync pressed → job done (polled every 20 ms)', ms(pressMs), '≤ 1 s'],
        ['the job itself (started → finished)', ms(run.ms), ''],
        ['new messages / read / starred after it', `${job.syncResult.newEmailsCount} / ${flags.read} / ${flags.starred}`, '100 / 250 / 250'],
      ])

      // The API with 100,000 more stored messages for the same user
      const [synced] = await sql<{ id: string }[]>`select id from mailbox_folders where provider_id = ${providerId} and path = 'INBOX'`
      await apiFigures(sql, config, user, account.id, synced.id)
    } finally {
      // SIGTERM: a graceful stop, so a CPU profile is written
      child.kill(profileDir ? 'SIGTERM' : 'SIGKILL')
      await exited
      await boss.stop({ graceful: false })
      await sql.end()
    }
  } finally {
    await db.close()
    await dovecot.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * CPU time so far of this benchmark's descendants by program (Dovecot's imap processes, the
 * Postgres backends, mbsync): a live process's own time plus that of the children it reaped.
 */
function descendantsCpuMs(): Map<string, number> {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((pid) => ({ pid: Number(pid), stat: procStat(pid) })).filter((p) => p.stat)
  const below = new Set([process.pid])
  for (let grew = true; grew;) {
    grew = false
    for (const p of all) if (!below.has(p.pid) && below.has(Number(p.stat!.fields[1]))) { below.add(p.pid); grew = true }
  }
  const byProgram = new Map<string, number>()
  for (const p of all) {
    if (!below.has(p.pid)) continue
    const f = p.stat!.fields
    // this process's reaped children are mbsync runs; a Dovecot or Postgres process's are its own kind
    const own = p.pid === process.pid ? 0 : Number(f[11]) + Number(f[12])
    const program = p.pid === process.pid ? 'mbsync' : /^(imap|dovecot|anvil|log|config|auth|stats)/.test(p.stat!.comm) ? 'dovecot' : p.stat!.comm.startsWith('postgres') ? 'postgres' : p.stat!.comm
    byProgram.set(program, (byProgram.get(program) ?? 0) + ticksMs(own + Number(f[13]) + Number(f[14])))
  }
  return byProgram
}

const cpuDelta = (after: Map<string, number>, before: Map<string, number>, program: string) => ((after.get(program) ?? 0) - (before.get(program) ?? 0)) / 1000

async function waitForIdle(sql: Sql, providerId: string): Promise<void> {
  for (;;) {
    const [row] = await sql<{ busy: number }[]>`select count(*)::int as busy from mailbox_sync_jobs where provider_id = ${providerId} and status in ('queued', 'running')`
    if (row.busy === 0) return
    await sleep(50)
  }
}

/** The API part alone (BENCH_SYNC_ONLY=api): the synced INBOX stored directly instead of by a sync. */
async function runApiOnly(): Promise<void> {
  const db = await benchDatabase()
  const work = mkdtempSync(path.join(os.tmpdir(), 'veilmail-bench-sync-'))
  try {
    const config = loadConfig({ NODE_ENV: 'test', SECRET_KEY, DATABASE_URL: db.url, DATA_DIR: work, LOG_LEVEL: 'warn' })
    const sql = createSql(db.url, { max: 4 })
    const boss = createBoss(db.url, { max: 2, maintenance: false })
    await boss.start()
    await createQueues(boss)
    try {
      const user = new ApiClient(attachMailbox(createApp({ sql, boss, config }), { sql, secretKey: config.secretKey }))
      const { user: account } = await user.register()
      // what the initial and the incremental sync leave stored
      // dated as the mailbox's messages are (a minute apart from 2026-01-01): newer than the 100,000
      const synced = await storeMessages(sql, config, account.id, MESSAGES + 100, 'synced', { from: Date.UTC(2026, 0, 1), step: 60_000 })
      await apiFigures(sql, config, user, account.id, synced)
    } finally {
      await boss.stop({ graceful: false })
      await sql.end()
    }
  } finally {
    await db.close()
    rmSync(work, { recursive: true, force: true })
  }
}

/** Stores 100,000 more messages for the user, then times the API's reads (p95 of 200 requests each). */
async function apiFigures(sql: Sql, config: Config, user: ApiClient, userId: string, syncedFolder: string): Promise<void> {
  const storedFolder = await storeMessages(sql, config, userId, STORED, 'stored', { from: Date.UTC(2024, 0, 1), step: 600_000 })
  await waitForAutovacuum(sql)
  const [{ id: someId }] = await sql<{ id: string }[]>`select id from received_emails where user_id = ${userId} and subject like 'Stored thread%' order by received_at desc limit 1`
  const [{ providerId: storedAccount }] = await sql<{ providerId: string }[]>`select provider_id from mailbox_folders where id = ${storedFolder}`
  const figures = [
    ['list page 1 (50, all accounts)', '/api/emails?providerId=all&limit=50&offset=0&category=inbox'],
    // the inbox's own list: 50 conversations and how many the list holds (the pager's total)
    ['list page 1 by conversation (the inbox\'s rows)', '/api/emails?providerId=all&limit=50&offset=0&category=inbox&by=conversation'],
    ['list page 100 by conversation (offset 4,950)', '/api/emails?providerId=all&limit=50&offset=4950&category=inbox&by=conversation'],
    ['list page 1, unread', '/api/emails?providerId=all&limit=50&offset=0&category=unread'],
    ['list page 1, starred', '/api/emails?providerId=all&limit=50&offset=0&category=starred'],
    ['list page 100 (offset 4,950)', '/api/emails?providerId=all&limit=50&offset=4950&category=inbox'],
    ['counts', '/api/emails/counts'],
    [`list page 1, one folder (${STORED.toLocaleString('en')} messages)`, `/api/emails?folder=${storedFolder}&limit=50&offset=0&category=inbox`],
    [`list page 100, one folder (${STORED.toLocaleString('en')} messages)`, `/api/emails?folder=${storedFolder}&limit=50&offset=4950&category=inbox`],
    [`counts of one folder (${STORED.toLocaleString('en')} messages)`, `/api/emails/counts?folder=${storedFolder}`],
    [`list page 1, one folder (${(MESSAGES + 100).toLocaleString('en')} messages)`, `/api/emails?folder=${syncedFolder}&limit=50&offset=0&category=inbox`],
    [`counts of one folder (${(MESSAGES + 100).toLocaleString('en')} messages)`, `/api/emails/counts?folder=${syncedFolder}`],
    // an account's categories, as the inbox asks for them (unread: up to 200 from the start)
    [`one account (${STORED.toLocaleString('en')} messages), unread (200)`, `/api/emails?providerId=${storedAccount}&limit=200&offset=0&category=unread`],
    [`one account (${STORED.toLocaleString('en')} messages), starred page 1`, `/api/emails?providerId=${storedAccount}&limit=50&offset=0&category=starred`],
    ['accounts with their folders\' counts (GET /api/email-providers, the sidebar)', '/api/email-providers'],
    ['conversation open (GET /api/emails/{id}, 5 messages)', `/api/emails/${someId}`],
  ] as const
  // round robin, one request of each figure in turn: a load that comes and goes on the machine
  // weighs on every figure alike instead of on the few timed while it lasted
  const times = figures.map(() => [] as number[])
  for (let i = 0; i < 220; i++) {
    for (const [k, [, path]] of figures.entries()) {
      const t0 = performance.now()
      const r = await user.get(path)
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`)
      await r.arrayBuffer()
      if (i >= 20) times[k].push(performance.now() - t0) // the first 20 warm up
    }
  }
  const rows = figures.map(([name], k): [string, string, string] => {
    const t = times[k].sort((x, y) => x - y)
    return [name, `p50 ${ms(percentile(t, 50))} · p95 ${ms(percentile(t, 95))}`, 'p95 ≤ 10 ms']
  })
  const [{ total }] = await sql<{ total: number }[]>`select count(*)::int as total from received_emails where user_id = ${userId}`
  printTable(`API with ${total.toLocaleString('en')} stored messages for one user (200 requests each, interleaved, in-process)`, rows)
}

/**
 * The API is timed on the table as the running service keeps it: once autovacuum has vacuumed and
 * analyzed received_emails after the inserts (migration 0051; within its naptime, a minute by
 * default), not in the minute right after 110,000 inserts, when no page of the newest mail is
 * marked all-visible yet and every index-only scan reads the table too. Gives up after 3 minutes
 * (a server with autovacuum off) and says so; the figures are then those of the unvacuumed table.
 */
async function waitForAutovacuum(sql: Sql): Promise<void> {
  // a vacuum (analyze) already running started before the last inserts: the one after it counts
  const counts = () => sql<{ vacuums: number; analyzes: number; vacuuming: boolean; analyzing: boolean }[]>`
    select autovacuum_count::int as vacuums, autoanalyze_count::int as analyzes,
      exists (select 1 from pg_stat_progress_vacuum v where v.relid = s.relid) as vacuuming,
      exists (select 1 from pg_stat_progress_analyze a where a.relid = s.relid) as analyzing
    from pg_stat_user_tables s where relname = 'received_emails'`
  const [before] = await counts()
  const wanted = { vacuums: before.vacuums + (before.vacuuming ? 2 : 1), analyzes: before.analyzes + (before.analyzing ? 2 : 1) }
  const started = performance.now()
  for (;;) {
    const [now] = await counts()
    if (now.vacuums >= wanted.vacuums && now.analyzes >= wanted.analyzes) break
    if (performance.now() - started > 180_000) {
      console.log('  autovacuum did not process received_emails within 3 minutes: the API figures are those of a table not yet vacuumed')
      await sql`analyze received_emails`
      return
    }
    await sleep(1000)
  }
  console.log(`  waited ${((performance.now() - started) / 1000).toFixed(0)} s for autovacuum to vacuum and analyze received_emails after the inserts`)
}

/** Stores `count` messages in a new account's INBOX, in conversations of five, as a sync stores them; answers that folder's id. */
async function storeMessages(sql: Sql, config: Config, userId: string, count: number, name: string, dates: { from: number; step: number }): Promise<string> {
  const providerId = crypto.randomUUID()
  const email = `${name}@bench.test`
  await insertEmailProvider(sql, {
    id: providerId, userId, provider: 'other', email,
    credentials: sealCredentials(config, providerId, { email, password: 'x', host: 'imap.bench.test', port: 993, secure: true }),
  })
  const folder = await upsertFolder(sql, providerId, 'INBOX', '\\Inbox', true)
  const box = receivedMailBox(config)
  let thread = ''
  for (let start = 0; start < count; start += 1000) {
    const rows: NewReceivedEmail[] = []
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      const id = crypto.randomUUID()
      if (i % 5 === 0) thread = crypto.randomUUID()
      rows.push({
        id, userId, providerId, folderId: folder.id, uid: i + 1, messageId: `<${name}-${i}@bench.test>`, inReplyTo: i % 5 ? `<${name}-${i - 1}@bench.test>` : null,
        referenceIds: i % 5 ? [`<${name}-${i - (i % 5)}@bench.test>`] : [], threadId: thread, threadSubject: `${name} thread ${Math.floor(i / 5)}`,
        subject: `${i % 5 ? 'Re: ' : ''}${name === 'stored' ? 'Stored' : 'Synced'} thread ${Math.floor(i / 5)}`, fromAddress: `s${i % 311}@example.org`, fromName: `Sender ${i % 311}`,
        toAddress: 'owner@mail.test', ccAddresses: '', bccAddresses: '', receivedAt: new Date(dates.from + i * dates.step), size: 4000 + (i % 20_000),
        isRead: i % 3 !== 0, isStarred: i % 40 === 0, isAnswered: false, hasAttachments: i % 50 === 0, modseq: null,
        preview: box.seal(`Preview of stored message ${i}, with a few ordinary words to fill a line of the list.`, `${id}:preview`),
        bodyText: box.seal(`Body of stored message ${i}.`, `${id}:text`), bodyHtml: null,
      })
    }
    await insertReceivedEmails(sql, rows)
  }
  return folder.id
}
