// `npm start` as a user runs it: a real supervisor with embedded Postgres in a fresh DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAlive, runningPostmasterPid } from '../db/embedded.ts'
import { freePort } from './testing/free-port.ts'

const ROOT = path.join(import.meta.dirname, '..')
let dataDir: string
let env: NodeJS.ProcessEnv

interface Started { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function start(): Started {
  const child = spawn(process.execPath, ['scripts/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => out, exited }
}

async function waitFor(s: Started, pattern: RegExp, ms = 90_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const match = pattern.exec(s.output())
    if (match) return match
    if (s.child.exitCode !== null) throw new Error(`exited early:\n${s.output()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${pattern}:\n${s.output()}`)
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-start-'))
  const port = await freePort()
  env = {
    PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info',
    DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()),
    MX_PORT: String(await freePort()), SUBMISSION_PORT: String(await freePort()), SUBMISSION_TLS_PORT: String(await freePort()),
  }
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm start', () => {
  it('runs everything, refuses a second copy, restarts a crashed child, and stops cleanly', async () => {
    const first = start()
    const [, url] = await waitFor(first, /Veilmail is running at (\S+)/)
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ ok: true, db: true, queue: true })
    const home = await fetch(url)
    expect(home.status).toBe(200)
    expect(await home.text()).toContain('<div id="root">')

    // a second start on the same DATA_DIR fails at once and harms nothing
    const second = start()
    expect(await second.exited).toBe(1)
    expect(second.output()).toMatch(/already running on .* \(pid \d+\)/)
    expect((await fetch(`${url}/api/health`)).status).toBe(200)

    // a crashed child is reported and restarted
    const webPid = Number((await waitFor(first, /web\s+started \(pid (\d+)\)/))[1])
    process.kill(webPid, 'SIGKILL')
    await waitFor(first, /web exited \(SIGKILL\); restarting/)
    await waitFor(first, new RegExp(`web\\s+started \\(pid (?!${webPid})\\d+\\)`))
    await expect.poll(() => fetch(`${url}/api/health`).then((r) => r.status, () => 0), { timeout: 20_000 }).toBe(200)

    const res = await fetch(`${url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@example.com', password: 'longenough' }) })
    expect(res.status).toBe(202) // registered; signed in once the mailed link is followed

    const pgPid = runningPostmasterPid(path.join(dataDir, 'postgres'))!
    expect(pgPid).toBeGreaterThan(0)
    first.child.kill('SIGINT')
    expect(await first.exited).toBe(0)
    expect(isAlive(pgPid)).toBe(false)
    await expect(fetch(`${url}/api/health`)).rejects.toThrow()

    // data survives a restart
    const third = start()
    await waitFor(third, /Veilmail is running at/)
    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@example.com', password: 'longenough' }) })
    expect(login.status).toBe(200)

    // a supervisor killed outright: its children follow it, and the next start takes over the
    // Postgres it left running
    third.child.kill('SIGKILL')
    await third.exited
    await expect.poll(() => fetch(`${url}/api/health`).then(() => 'up', () => 'down'), { timeout: 10_000 }).toBe('down')
    const orphan = runningPostmasterPid(path.join(dataDir, 'postgres'))
    expect(orphan).toBeGreaterThan(0)
    const fourth = start()
    await waitFor(fourth, /Veilmail is running at/)
    expect(isAlive(orphan!)).toBe(false)
    fourth.child.kill('SIGTERM')
    expect(await fourth.exited).toBe(0)
  }, 180_000)
})
