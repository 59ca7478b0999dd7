// Initial sync of a 10,000-message mailbox from a private Dovecot (2–50 KB, one in fifty with a
// 30 KB attachment): Veilmail's `sync` process (account added through the API → counts show all
// 10,000) against `mbsync` (isync) copying the same mailbox to a maildir, in the same run, with
// the sync process's peak RSS. Skipped with a message when dovecot or mbsync is missing.
import { execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createApp } from '../../api/app.ts'
import { createSql } from '../../db/client.ts'
import { loadConfig } from '../../lib/config.ts'
import { createBoss, createQueues } from '../../db/queues.ts'
import { ApiClient } from '../testing/api-client.ts'
import { DOVECOT, startDovecot } from '../testing/dovecot.ts'
import { benchDatabase } from './bench-db.ts'
import { printTable, sleep } from './bench-table.ts'

const MESSAGES = 10_000
const MBSYNC = '/usr/bin/mbsync'
const SECRET_KEY = randomBytes(32).toString('base64url')

function message(i: number): Buffer {
  const size = 2000 + ((i * 7919) % 48_000)
  const body = `Line of benchmark message ${i} with ordinary words. `.repeat(Math.ceil(size / 40)).slice(0, size).replace(/(.{76})/g, '$1\r\n')
  const head = `From: Sender ${i % 97} <s${i % 97}@example.org>\r\nTo: owner@mail.test\r\nSubject: Bench message ${i}\r\n` +
    `Date: ${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString()}\r\nMessage-ID: <bench-${i}@example.org>\r\nMIME-Version: 1.0\r\n`
  if (i % 50 !== 0) return Buffer.from(`${head}Content-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`)
  const attachment = randomBytes(22_500).toString('base64').replace(/(.{76})/g, '$1\r\n')
  return Buffer.from(`${head}Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n` +
    `--b${i}\r\nContent-Type: application/octet-stream; name="data-${i}.bin"\r\nContent-Disposition: attachment; filename="data-${i}.bin"\r\n` +
    `Content-Transfer-Encoding: base64\r\n\r\n${attachment}\r\n--b${i}--\r\n`)
}

export async function run(): Promise<void> {
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
    let started = performance.now()
    await promisify(execFile)(MBSYNC, ['-c', path.join(work, 'rc'), 'inbox'], { maxBuffer: 1 << 24 })
    const mbsyncMs = performance.now() - started

    // Veilmail: the API adds the account, a real sync process syncs it, the counts show it all
    const config = loadConfig({ NODE_ENV: 'test', SECRET_KEY, DATABASE_URL: db.url, DATA_DIR: work, ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' })
    const sql = createSql(db.url, { max: 4 })
    const boss = createBoss(db.url, { max: 2, maintenance: false })
    await boss.start()
    await createQueues(boss)
    const app = createApp({ sql, boss, config })
    const user = new ApiClient(app)
    await user.register()
    const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'workers', 'sync', 'sync.ts')], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, DATA_DIR: work, SECRET_KEY, ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: dovecot.caFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    let peakKb = 0
    try {
      await sleep(1500) // the process is up and idle before the clock starts
      started = performance.now()
      const res = await user.post('/api/email-providers', {
        provider: 'other', email: login,
        encryptedCredentials: Buffer.from(JSON.stringify({ email: login, password, host: dovecot.host, port: dovecot.port, secure: true })).toString('base64'),
      })
      if (res.status !== 202) throw new Error(`adding the account failed: ${res.status}`)
      for (;;) {
        const counts = await (await user.get('/api/emails/counts')).json() as { total: number }
        if (counts.total >= MESSAGES) break
        await sleep(50)
      }
      const veilmailMs = performance.now() - started
      peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0)
      printTable(`Initial sync of ${MESSAGES.toLocaleString('en')} messages (npm run bench -- sync)`, [
        ['mbsync (isync) to a maildir', `${(mbsyncMs / 1000).toFixed(1)} s`, ''],
        ['Veilmail: account added → counts show all', `${(veilmailMs / 1000).toFixed(1)} s`, '≤ 1.0× mbsync'],
        ['ratio Veilmail / mbsync', `${(veilmailMs / mbsyncMs).toFixed(2)}×`, '≤ 1.0'],
        ['sync process peak RSS', `${(peakKb / 1024).toFixed(0)} MB`, '≤ 256 MB'],
      ])
    } finally {
      child.kill('SIGKILL')
      await boss.stop({ graceful: false })
      await sql.end()
    }
  } finally {
    await db.close()
    await dovecot.stop()
    rmSync(work, { recursive: true, force: true })
  }
}
