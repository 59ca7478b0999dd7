// `redocly lint` (@redocly/cli, the recommended rules) over the document the app serves: no error.
// It runs offline: telemetry and the update check are off, and the document references nothing
// outside itself.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createApi } from '../app.ts'
import type { AppEnv } from '../context.ts'
import { openApiDocument } from './openapi-document.ts'

const redocly = path.join(import.meta.dirname, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js')

async function lint(doc: object) {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'))
  try {
    const file = path.join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(doc, null, 1))
    const run = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--format=stylish'], {
      cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).then((r) => ({ code: 0, out: r.stdout + r.stderr }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }))
    return run
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('redocly lint', () => {
  it('finds no error in the document', async () => {
    const doc = await openApiDocument(createApi() as unknown as Hono<AppEnv>, '1.0.0', 'veilmail_session')
    const { code, out } = await lint(doc)
    expect(out.split('\n').filter((line) => /\berror\b/.test(line))).toEqual([])
    expect(code).toBe(0)
    expect(out).toContain('Your API description is valid')
  }, 60_000)

  it('finds the errors the issue found in the document as it was (the linter is awake)', async () => {
    const doc = await openApiDocument(createApi() as unknown as Hono<AppEnv>, '1.0.0', 'veilmail_session') as { paths: Record<string, Record<string, unknown>> }
    const aliases = doc.paths['/aliases/{id}']
    doc.paths['/aliases/{userId}'] = { get: { ...(aliases.get as object), parameters: [{ in: 'path', name: 'userId', required: true, schema: { type: 'string' } }] } }
    const { code, out } = await lint(doc)
    expect(code).not.toBe(0)
    expect(out).toContain('no-identical-paths')
  }, 60_000)
})
