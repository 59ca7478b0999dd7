// What the `web` process loads: the API and what sits below it, never worker code (issue 31: the
// API reached into workers/sync/ for sealing, the sync intents and the Microsoft client, so the
// web process loaded the sync's modules). scripts/floors.test.ts forbids the imports; this reads
// what the process really loaded.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = path.join(import.meta.dirname, '..')
const dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-web-imports-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the web process at its start', () => {
  it('loads the whole API, no module of workers/ and nothing that signs or sends mail', async () => {
    const loaded = path.join(dir, 'loaded.txt')
    const hook = path.join(dir, 'hook.mjs')
    // every module the process loads is written down as it loads (Node's synchronous module hooks)
    writeFileSync(hook, `import { registerHooks } from 'node:module'
import { appendFileSync } from 'node:fs'
registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, url + '\\n'); return next(url, context) } })\n`)
    // no database: the process stops at its first statement, once its static imports are all loaded
    const run = await promisify(execFile)(process.execPath, ['--import', hook, 'api/server.ts'], { cwd: ROOT, env: { PATH: process.env.PATH, NODE_ENV: 'test' } })
      .then(() => ({ failed: false }), () => ({ failed: true }))
    expect(run.failed).toBe(true)
    const urls = readFileSync(loaded, 'utf8').split('\n').filter(Boolean)
    for (const routes of ['/api/app.ts', '/api/emails/email-routes.ts', '/api/auth/microsoft-routes.ts', '/api/email-providers/email-provider-routes.ts', '/api/undelivered/undelivered-routes.ts']) {
      expect({ routes, loaded: urls.some((u) => u.endsWith(routes)) }).toEqual({ routes, loaded: true })
    }
    expect(urls.filter((u) => u.includes(`${path.sep}workers${path.sep}`) && !u.includes('/node_modules/'))).toEqual([])
    // the web process signs and sends no mail (issue 30's "Send a test mail" is queued for the delivery process)
    const sending = ['/lib/dkim-signer.ts', '/lib/outbound-transport.ts', '/nodemailer/dist/esm/smtp-connection/', '/nodemailer/dist/esm/smtp-pool/']
    expect(urls.filter((u) => sending.some((m) => u.includes(m)))).toEqual([])
  })
})
