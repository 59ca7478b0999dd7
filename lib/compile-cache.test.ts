// The compile cache as the Procfile loads it: a process that stops on SIGTERM leaves its compiled
// modules in DATA_DIR/compile-cache and the next start reads them; a DATA_DIR it cannot write to
// costs nothing but the cache.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readProcfile } from '../scripts/procfile.ts'

const ROOT = path.join(import.meta.dirname, '..')
const PRELOAD = ['--import', './lib/compile-cache.ts']
// a long-running process as the service's are: its modules, its SIGTERM handling (process-lifecycle.ts)
const PROCESS = `import { onShutdown } from './lib/process-lifecycle.ts'
import { SecretBox } from './lib/secret-box.ts'
onShutdown(async () => {})
new SecretBox('x'.repeat(32), 'test').seal('ready')
console.log('ready')
setInterval(() => {}, 1000)`

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-compile-cache-'))
  dirs.push(dir)
  return dir
}

/** Starts the process, stops it with SIGTERM once ready; its exit code and Node's compile-cache trace. */
function runOnce(env: NodeJS.ProcessEnv): Promise<{ code: number | null; trace: string }> {
  const child = spawn(process.execPath, [...PRELOAD, '--input-type=module', '-e', PROCESS], {
    cwd: ROOT, env: { PATH: process.env.PATH, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let trace = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d
    if (out.includes('ready')) child.kill('SIGTERM')
  })
  child.stderr.on('data', (d: Buffer) => { trace += d })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, trace })))
}

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0)
/** The trace says this module's compiled code (not only its stripped source) was read from the cache. */
const readFromCache = (trace: string, file: string) =>
  new RegExp(`reading cache from \\S+ for ESM file://\\S+/${file.replace('.', '\\.')}\\.\\.\\.\\S*.*success`).test(trace)

describe('compile cache', () => {
  it('is written to DATA_DIR/compile-cache by a process stopped with SIGTERM, and read by the next start', async () => {
    const dataDir = tempDir()
    const first = await runOnce({ DATA_DIR: dataDir })
    expect(first.code).toBe(0)
    expect(readFromCache(first.trace, 'secret-box.ts')).toBe(false)
    expect(entries(path.join(dataDir, 'compile-cache'))).toBeGreaterThan(3)
    const second = await runOnce({ DATA_DIR: dataDir })
    expect(second.code).toBe(0)
    expect(readFromCache(second.trace, 'secret-box.ts')).toBe(true)
    expect(readFromCache(second.trace, 'process-lifecycle.ts')).toBe(true)
  })

  it('is skipped when DATA_DIR cannot hold it: the process runs and stops as usual', async () => {
    const file = path.join(tempDir(), 'not-a-directory')
    writeFileSync(file, '')
    const run = await runOnce({ DATA_DIR: file })
    expect(run.code).toBe(0)
    expect(readFromCache(run.trace, 'secret-box.ts')).toBe(false)
  })

  it('is loaded first by every process of the Procfile', () => {
    const lines = readProcfile()
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line.argv.slice(0, 3), line.name).toEqual(['node', ...PRELOAD])
  })
})
