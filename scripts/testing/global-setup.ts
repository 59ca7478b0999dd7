// Once per test run: one Postgres (DATABASE_URL, else an embedded instance in a temporary
// folder on a free port) and a fresh web build. Each test file then makes its own database.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../db/embedded.ts'
import { ensureWebBuild } from '../web-build.ts'
import { freePort } from './free-port.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

let db: EmbeddedDatabase | undefined
let dir: string | undefined

export async function setup(project: TestProject) {
  let url = process.env.DATABASE_URL
  if (!url) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-test-pg-'))
    db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), port: await freePort(), database: 'postgres' })
    url = db.url
  }
  project.provide('databaseUrl', url)
  // Browser tests drive the built app; API-only runs may skip the build.
  if (process.env.VEILMAIL_SKIP_WEB_BUILD !== '1') await ensureWebBuild((line) => console.log(line))
}

export async function teardown() {
  await db?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}
