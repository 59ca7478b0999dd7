// Append on IMAP → visible in an open inbox (issue 26 item 1, target p95 ≤ 3 s): the browser test
// web/e2e/inbox-live.test.ts measures it against a private Dovecot with the real sync worker (IMAP
// IDLE), the web process (NOTIFY → Server-Sent Events) and Chromium; it needs the test harness's
// databases and build, so it runs under vitest here and prints its table.
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const ROOT = path.join(import.meta.dirname, '..', '..')

export async function run(): Promise<void> {
  const result = spawnSync('npx', ['vitest', 'run', 'web/e2e/inbox-live.test.ts', '-t', 'measures append'], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, VEILMAIL_BENCH: '1' },
  })
  if (result.status !== 0) throw new Error(`the inbox-live benchmark failed (exit ${result.status})`)
}
