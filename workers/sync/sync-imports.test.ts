// What the `sync` process holds in memory from its start: modules it loads whatever the accounts
// are. arctic (Microsoft sign-in) is loaded only when an Outlook account's tokens are renewed
// (db/mailbox-login.ts imports lib/microsoft-client.ts then), not by every sync process at its start.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = path.join(import.meta.dirname, '..', '..')
const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-sync-imports-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the sync process at its start', () => {
  it('loads its modules without arctic', async () => {
    const loaded = path.join(dir, 'loaded.txt')
    const hook = path.join(dir, 'hook.mjs')
    // every module the process loads is written down as it loads (Node's synchronous module hooks)
    writeFileSync(hook, `import { registerHooks } from 'node:module'
import { appendFileSync } from 'node:fs'
registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, url + '\\n'); return next(url, context) } })\n`)
    // no database: the process stops at its first statement, once its static imports are all loaded
    const run = await promisify(execFile)(process.execPath, ['--import', hook, 'workers/sync/sync.ts'], { cwd: ROOT, env: { PATH: process.env.PATH, NODE_ENV: 'test' } })
      .then(() => ({ failed: false }), () => ({ failed: true }))
    expect(run.failed).toBe(true)
    const urls = readFileSync(loaded, 'utf8').split('\n').filter(Boolean)
    expect(urls.some((u) => u.includes('/node_modules/imapflow/'))).toBe(true)
    expect(urls.some((u) => u.includes('/workers/sync/sync-mailbox.ts'))).toBe(true)
    expect(urls.filter((u) => u.includes('/node_modules/arctic/') || u.includes('/lib/microsoft-client.ts'))).toEqual([])
  })
})
