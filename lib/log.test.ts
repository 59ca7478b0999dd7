// Log lines as a process writes them: JSON or logfmt by LOG_FORMAT, and HTTP requests at debug.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../scripts/testing/test-app.ts'
import { formatLine, onLogEvent } from './log.ts'

const ROOT = path.join(import.meta.dirname, '..')

/** What a process prints for one event under `env`. */
function printed(env: Record<string, string>): string {
  const script = "const { log } = await import('./lib/log.ts'); log.info('web.listening', { port: 3000, note: 'two words', quote: 'a\"b', none: undefined })"
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH, VEILMAIL_PROCESS: 'web', ...env }, encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return run.stdout.trim()
}

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('log', () => {
  it('writes one JSON line per event by default, one logfmt line with LOG_FORMAT=logfmt', () => {
    const json = JSON.parse(printed({}))
    expect(json).toEqual({ t: expect.stringMatching(/Z$/), level: 'info', process: 'web', event: 'web.listening', port: 3000, note: 'two words', quote: 'a"b' })
    expect(printed({ LOG_FORMAT: 'logfmt' })).toMatch(/^t=\S+Z level=info process=web event=web.listening port=3000 note="two words" quote="a\\"b"$/)
    expect(printed({ LOG_FORMAT: 'logfmt', LOG_LEVEL: 'warn' })).toBe('')
    expect(formatLine('logfmt', { a: '', b: 'x=y', c: true, d: null })).toBe('a="" b="x=y" c=true d=null')
  })

  it('writes the lines of one turn of the event loop in one write, in order, and those held when the process dies', () => {
    const script = [
      "const { log } = await import('./lib/log.ts')",
      'let writes = 0',
      'const write = process.stdout.write.bind(process.stdout)',
      'process.stdout.write = (...args) => { writes++; return write(...args) }',
      "for (let i = 0; i < 50; i++) log.info('test.line', { i })",
      "setImmediate(() => setImmediate(() => { process.stderr.write(`writes ${writes}\\n`); log.info('test.last'); throw new Error('crash') }))",
    ].join('\n')
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH }, encoding: 'utf8' })
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/^writes 1\n[\s\S]*Error: crash/)
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; i?: number })
    expect(lines.map((l) => l.i ?? l.event)).toEqual([...Array.from({ length: 50 }, (_, i) => i), 'test.last'])
  })

  it('logs every HTTP request at debug, not info', async () => {
    const seen: { level: string; event: string; route: unknown }[] = []
    onLogEvent((level, event, fields) => { if (event === 'http.request') seen.push({ level, event, route: fields.route }) })
    await t.app.request('/api/health')
    expect(seen).toEqual([{ level: 'debug', event: 'http.request', route: '/api/health' }])
  })
})
