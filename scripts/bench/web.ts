// The web app's initial download: the JavaScript and CSS that index.html loads before anything
// else (entry script and module preloads), raw and gzip-compressed, from a fresh build.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { printTable } from '../print-table.ts'
import { ensureWebBuild } from '../web-build.ts'

const ROOT = path.join(import.meta.dirname, '..', '..', 'dist', 'web')

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
}
