// The web app's initial download: the JavaScript and CSS that index.html loads before anything
// else (entry script and module preloads), raw and gzip-compressed, from a fresh build. Then the
// inbox in Chromium (issue 26, "Speed"): warm /inbox → first row, click → message body, click →
// conversation, p50/p95, and the initial JavaScript of /inbox; the browser test
// web/e2e/inbox-speed.test.ts measures them against a private Dovecot with the real sync worker,
// so it runs under vitest here (the test harness's databases and build) and prints its table.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { printTable } from '../print-table.ts'
import { ensureWebBuild } from '../web-build.ts'

const ROOT = path.join(import.meta.dirname, '..', '..', 'dist', 'web')
const REPO = path.join(import.meta.dirname, '..', '..')

export async function run(): Promise<void> {
  await ensureWebBuild()
  const html = readFileSync(path.join(ROOT, 'index.html'), 'utf8')
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
  const rows = files.map((file) => {
    const bytes = readFileSync(path.join(ROOT, file))
    return { file, kb: (bytes.length / 1024).toFixed(1), gzipKb: (gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1) }
  })
  const sum = (key: 'kb' | 'gzipKb', ext: string) => rows.filter((r) => r.file.endsWith(ext)).reduce((n, r) => n + Number(r[key]), 0).toFixed(1)
  printTable([
    ...rows,
    { file: 'initial JS total', kb: sum('kb', '.js'), gzipKb: sum('gzipKb', '.js') },
    { file: 'initial CSS total', kb: sum('kb', '.css'), gzipKb: sum('gzipKb', '.css') },
  ])
  const result = spawnSync('npx', ['vitest', 'run', 'web/e2e/inbox-speed.test.ts', '-t', 'measures warm'], {
    cwd: REPO, stdio: 'inherit', env: { ...process.env, VEILMAIL_BENCH: '1' },
  })
  if (result.status !== 0) throw new Error(`the inbox speed benchmark failed (exit ${result.status})`)
}
