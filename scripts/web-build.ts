// Builds the web app when dist/web is missing or older than anything it is built from.
import { spawn } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.join(import.meta.dirname, '..')
const OUT = path.join(ROOT, 'dist', 'web', 'index.html')
// The web app bundles web/ and the browser-safe shared/ folder; nothing else of the server side.
const SOURCES = ['web', 'shared', 'vite.config.ts', 'package-lock.json']

function newestMtime(p: string, keep: (file: string) => boolean = () => true): number {
  let info
  try {
    info = statSync(p)
  } catch {
    return 0
  }
  if (!info.isDirectory()) return keep(p) ? info.mtimeMs : 0
  let newest = 0
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue
    newest = Math.max(newest, newestMtime(path.join(p, entry), keep))
  }
  return newest
}

export function webBuildIsStale(): boolean {
  let built = 0
  try {
    built = statSync(OUT).mtimeMs
  } catch {
    return true
  }
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built)
}

export async function ensureWebBuild(log: (line: string) => void = () => {}): Promise<boolean> {
  if (!webBuildIsStale()) return false
  log('building the web app (vite build)…')
  await new Promise<void>((resolve, reject) => {
    const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')
    // Always a production build, whatever NODE_ENV the caller runs under (tests run with NODE_ENV=test).
    const env = { ...process.env, NODE_ENV: 'production' }
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (exit ${code})`))))
  })
  return true
}
