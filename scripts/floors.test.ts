// The floors of the tree (docs/architecture.md): web -> api, and api and workers side by side on
// db -> lib, with shared/ the browser-safe floor under all of them. A file imports only its own
// floor and the ones below it: api/ never imports workers/ (the web process loads no worker code),
// nor workers/ api/; what both need sits in db/ or lib/. The web app imports only web/ and shared/.
// Tests may also use scripts/ (the harness in scripts/testing, the migrations runner), and a test
// of api/ may run a worker's job handler on the job its route queued.
// Inside web/, imports flow one way (bulletproof-react): shared code (components/, lib/, hooks/) ->
// features/<name>/ -> app/; a feature never imports another feature: the route composes them.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.join(import.meta.dirname, '..')
const FLOORS = ['shared', 'lib', 'db', 'workers', 'api', 'web'] as const
type Floor = (typeof FLOORS)[number]
/** What each floor may import besides itself (the web app's own rule is below). */
const BELOW: Record<Floor, readonly Floor[]> = {
  shared: [], lib: ['shared'], db: ['lib', 'shared'],
  workers: ['db', 'lib', 'shared'], api: ['db', 'lib', 'shared'], web: ['api', 'workers', 'db', 'lib', 'shared'],
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(rel)
    return /\.tsx?$/.test(entry.name) ? [rel] : []
  })
}

const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g

function relativeImports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8')
  return [...text.matchAll(IMPORT)].map((m) => path.normalize(path.join(path.dirname(file), m[1])))
}

const floorOf = (file: string) => file.split(path.sep)[0] as Floor | string

/** web/app, web/features/<name>, or the web app's shared code (components, lib, hooks). */
function webPart(file: string): { part: 'app' | 'feature' | 'shared'; feature?: string } {
  const [, top, name] = file.split(path.sep)
  // main.tsx, the entry that mounts the app, sits with it
  if (top === 'app' || top === 'main.tsx') return { part: 'app' }
  if (top === 'features') return { part: 'feature', feature: name }
  return { part: 'shared' }
}

/** Within web/ (not its tests): app imports anything, a feature itself and shared code, shared code only itself. */
function webMayImport(file: string, target: string): boolean {
  const from = webPart(file)
  const to = webPart(target)
  if (from.part === 'app') return true
  if (from.part === 'feature') return to.part === 'shared' || to.feature === from.feature
  return to.part === 'shared'
}

/** What a file may import, by where it sits. */
export function mayImport(file: string, target: string): boolean {
  const from = floorOf(file)
  const to = floorOf(target)
  const isTest = /\.test\.tsx?$/.test(file) || file.startsWith(path.join('web', 'e2e'))
  if (isTest && floorOf(target) === 'scripts') return true
  if (from === 'web' && !isTest) return to === 'shared' || (to === 'web' && webMayImport(file, target))
  if (!FLOORS.includes(from as Floor) || !FLOORS.includes(to as Floor)) return false
  if (from === to) return true
  if (isTest && from === 'api' && to === 'workers') return true
  return BELOW[from as Floor].includes(to as Floor)
}

describe('floors', () => {
  it('has no import from a floor above, and a web app that imports only web/ and shared/', () => {
    const violations = FLOORS.flatMap((floor) =>
      sourceFiles(floor).flatMap((file) => relativeImports(file).filter((target) => !mayImport(file, target)).map((target) => `${file} -> ${target}`)),
    )
    expect(violations).toEqual([])
  })

  it('refuses the imports the rule exists for', () => {
    expect(mayImport('web/features/x/a.ts', 'api/aliases/alias-routes.ts')).toBe(false)
    expect(mayImport('web/features/x/a.ts', 'lib/config.ts')).toBe(false)
    expect(mayImport('db/aliases.ts', 'workers/mx/mx.ts')).toBe(false)
    expect(mayImport('lib/config.ts', 'db/client.ts')).toBe(false)
    expect(mayImport('shared/alias-schemas.ts', 'lib/config.ts')).toBe(false)
    expect(mayImport('workers/mx/mx.ts', 'scripts/testing/mailbox.ts')).toBe(false)
    expect(mayImport('workers/mx/mx.test.ts', 'scripts/testing/mailbox.ts')).toBe(true)
    expect(mayImport('api/server.ts', 'db/queues.ts')).toBe(true)
    // the web process loads no worker code, and the workers no route
    expect(mayImport('api/emails/email-routes.ts', 'workers/sync/sync-mailbox.ts')).toBe(false)
    expect(mayImport('api/auth/microsoft-routes.ts', 'workers/sync/sync-mailbox.ts')).toBe(false)
    expect(mayImport('workers/sync/sync-mailbox.ts', 'api/app.ts')).toBe(false)
    expect(mayImport('api/emails/email-routes.ts', 'db/sync-requests.ts')).toBe(true)
    expect(mayImport('workers/sync/sync-mailbox.ts', 'db/mailbox-login.ts')).toBe(true)
    expect(mayImport('api/account/account-routes.test.ts', 'workers/delivery/account-cleanup.ts')).toBe(true)
    expect(mayImport('web/features/x/a.ts', 'shared/alias-schemas.ts')).toBe(true)
    expect(mayImport('web/features/inbox/components/a.tsx', 'web/features/compose/components/compose-form.tsx')).toBe(false)
    expect(mayImport('web/features/inbox/components/a.tsx', 'web/app/inbox/inbox-parts.ts')).toBe(false)
    expect(mayImport('web/lib/api-client.ts', 'web/features/auth/lib/x.ts')).toBe(false)
    expect(mayImport('web/features/inbox/components/a.tsx', 'web/features/inbox/lib/b.ts')).toBe(true)
    expect(mayImport('web/features/inbox/components/a.tsx', 'web/components/ui/button.tsx')).toBe(true)
    expect(mayImport('web/app/routes/inbox.tsx', 'web/features/compose/components/compose-form.tsx')).toBe(true)
  })
})
