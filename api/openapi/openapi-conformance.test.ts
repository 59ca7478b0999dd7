// Every operation of /api/openapi.json called against the real app on a real database — signed
// out, with another user's ids, with a bad body, and once as it should succeed — and each real
// answer (status and body) checked against the document with ajv. An answer whose status the
// document does not list, or whose body does not match the listed schema, fails; so does a route
// of the app that the document, the answer table or the probes leave out.
import { writeFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { makeRouteResources, type RouteResources } from '../../scripts/testing/route-fixtures.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { documentedPath } from './openapi-document.ts'
import { OPERATION_PROBES, type ProbeContext } from '../../scripts/testing/operation-probes.ts'
import { ROUTE_DESCRIPTIONS } from './route-descriptions.ts'
import { ROUTE_RESPONSES } from './route-responses.ts'

type Schema = Record<string, unknown>
type Op = { requestBody?: unknown; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }

let t: TestApp
let doc: { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, Schema> } }
let ctx: ProbeContext
let ofB: RouteResources
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
let lastRequest: { method: string; url: URL; body?: string } | undefined
/** every answer seen, for OPENAPI_RECORD=<file> (writing the table from real answers) */
const seen: { route: string; scenario: string; status: number; body: unknown }[] = []

beforeAll(async () => {
  // every optional route on, so each is called (Google and Microsoft sign-in answer 404 when unconfigured)
  t = await createTestApp({
    MICROSOFT_CLIENT_ID: 'openapi-test', MICROSOFT_CLIENT_SECRET: 'openapi-test-secret',
    GOOGLE_CLIENT_ID: 'openapi-test', GOOGLE_CLIENT_SECRET: 'openapi-test-secret',
    // the probes make some forty accounts from one address (the limits' own tests check 429)
    RATE_LIMITS: 'register-ip=1000/3600',
  })
  doc = await (await t.app.request('/api/openapi.json')).json()
  // the last request each probe made: the one whose answer is checked
  const request = t.app.request.bind(t.app)
  t.app.request = ((input: string, init?: RequestInit) => {
    lastRequest = { method: init?.method ?? 'GET', url: new URL(input, 'http://localhost'), body: typeof init?.body === 'string' ? init.body : undefined }
    return request(input, init)
  }) as typeof t.app.request
  const password = 'correct horse battery'
  const a = new ApiClient(t.app)
  const signedUpA = await a.register(undefined, password)
  const user = { id: signedUpA.user.id, email: signedUpA.email, password }
  const b = new ApiClient(t.app)
  const signedUpB = await b.register(undefined, password)
  ofB = await makeRouteResources(t, b, signedUpB.user)
  ctx = {
    t, a, user, r: await makeRouteResources(t, a, user),
    async fresh() {
      const client = new ApiClient(t.app)
      const made = await client.register(undefined, password)
      const freshUser = { id: made.user.id, email: made.email, password }
      return { client, user: freshUser, r: await makeRouteResources(t, client, freshUser) }
    },
  }
}, 120_000)
afterAll(async () => {
  if (process.env.OPENAPI_RECORD) writeFileSync(process.env.OPENAPI_RECORD, JSON.stringify(seen, null, 1))
  await t?.close()
})

/** Every METHOD /api/path the app routes, path parameters written as OpenAPI writes them. */
function appRoutes(): string[] {
  const routes = t.app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/') && !r.path.includes('*'))
    .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
  return [...new Set(routes)].sort()
}

const fill = (route: string, ids: RouteResources) => route.slice(route.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_, name: string) => {
  if (!(name in ids)) throw new Error(`${route}: no resource for {${name}}; add one to scripts/testing/route-fixtures.ts`)
  return ids[name]
})
const methodOf = (route: string) => route.slice(0, route.indexOf(' '))
const operationOf = (route: string): Op | undefined => doc.paths[documentedPath(route)]?.[methodOf(route).toLowerCase()]

/** What is wrong with `res` as an answer of `route` by the document ('' when nothing). */
async function mismatch(route: string, scenario: string, res: Response): Promise<string> {
  const where = `${route} (${scenario}) → ${res.status}`
  const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? (await res.body?.cancel(), '') : await res.text()
  let body: unknown = text
  try { body = text ? JSON.parse(text) : undefined } catch { /* not JSON */ }
  seen.push({ route, scenario, status: res.status, body })
  const op = operationOf(route)
  if (!op) return `${where}: the document has no such operation`
  const response = op.responses[String(res.status)]
  if (!response) return `${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')}) ${text.slice(0, 200)}`
  if (res.status === 302 && !res.headers.get('location')) return `${where}: no Location`
  if (!response.content) return text === '' ? '' : `${where}: documented without a body, answered ${text.slice(0, 200)}`
  const [type, media] = Object.entries(response.content)[0]
  if (type !== '*/*' && !res.headers.get('content-type')?.startsWith(type)) return `${where}: content-type ${res.headers.get('content-type')}, documented ${type}`
  if (type !== 'application/json') return ''
  let schema = media.schema
  if (typeof schema.$ref === 'string') schema = doc.components.schemas[schema.$ref.split('/').pop()!]
  const validate = ajv.compile(schema)
  return validate(body) ? '' : `${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`
}

/** What is wrong with the last request as a call of `route` with a body the document allows ('' when nothing). */
function requestMismatch(route: string): string {
  const { method, url, body } = lastRequest!
  const pattern = new RegExp(`^${route.slice(route.indexOf(' ') + 1).replace(/\{\w+\}/g, '[^/]+')}$`)
  if (method !== methodOf(route) || !pattern.test(url.pathname)) return `${route}: the probe's last request was ${method} ${url.pathname}`
  const schema = (operationOf(route)?.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.['application/json']?.schema
  if (!schema || body === undefined) return ''
  const validate = ajv.compile(schema)
  return validate(JSON.parse(body)) ? '' : `${route}: the probe's body ${body.slice(0, 200)} is not what the document allows: ${ajv.errorsText(validate.errors)}`
}

async function expectDocumented(calls: [route: string, scenario: string, send: () => Promise<Response>][]) {
  const problems: string[] = []
  for (const [route, scenario, send] of calls) {
    const problem = await mismatch(route, scenario, await send())
    if (problem) problems.push(problem)
  }
  expect(problems).toEqual([])
}

describe('the OpenAPI document against the app', () => {
  it('describes every route the app serves, with its answers and a probe, and nothing else', () => {
    const routes = appRoutes()
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} /api${path}`))
    expect(Object.keys(ROUTE_DESCRIPTIONS).sort()).toEqual(routes)
    expect(Object.keys(ROUTE_RESPONSES).sort()).toEqual(routes)
    expect(Object.keys(OPERATION_PROBES).sort()).toEqual(routes)
    expect(documented.sort()).toEqual(routes.map((r) => `${methodOf(r)} /api${documentedPath(r)}`).sort())
  })

  it('answers as documented signed out', async () => {
    await expectDocumented(appRoutes().map((route) => [route, 'signed out', () =>
      new ApiClient(t.app).request(methodOf(route), fill(route, ofB), methodOf(route) === 'GET' ? undefined : {})]))
  })

  it("answers as documented to another user's ids", async () => {
    await expectDocumented(appRoutes().filter((r) => r.includes('{')).map((route) => [route, "another user's ids", () =>
      ctx.a.request(methodOf(route), fill(route, ofB), methodOf(route) === 'GET' ? undefined : {})]))
  })

  it("answers as documented to another user's ids in the query and the body, the list by conversation, and other refusals", async () => {
    await expectDocumented([
      ['GET /api/emails', "another user's folder", () => ctx.a.get(`/api/emails?folder=${ofB.folderId}`)],
      ['GET /api/emails', "another user's mailbox", () => ctx.a.get(`/api/emails?providerId=${ofB.providerId}`)],
      ['GET /api/emails', 'by conversation', () => ctx.a.get('/api/emails?by=conversation')],
      ['GET /api/emails/counts', "another user's folder", () => ctx.a.get(`/api/emails/counts?folder=${ofB.folderId}`)],
      ['POST /api/smtp-credentials', "another user's alias", () => ctx.a.post('/api/smtp-credentials', { aliasId: ofB.aliasId })],
      ['POST /api/email-jobs', "another user's alias", () => ctx.a.post('/api/email-jobs', { to: 'x@example.org', subject: 's', body: 'b', fromAliasId: ofB.aliasId })],
      ['POST /api/decrypt-auto', "another user's key", () => ctx.a.post('/api/decrypt-auto', { encryptedText: 'x', keyId: ofB.keyId, masterPassword: 'the master password' })],
      ['POST /api/emails/{emailId}/move', "another user's folder", () => ctx.a.post(`/api/emails/${ctx.r.emailId}/move`, { folderId: ofB.folderId })],
    ])
    // and other refusals the generic calls do not reach
    await expectDocumented([
      ['GET /api/emails', 'bad query', () => ctx.a.get('/api/emails?limit=-1')],
      ['GET /api/emails/counts', 'bad query', () => ctx.a.get('/api/emails/counts?folder=not-a-folder')],
      ['POST /api/auth/login', 'wrong password', () => new ApiClient(t.app).post('/api/auth/login', { email: ctx.user.email, password: 'not the password' })],
      ['POST /api/auth/wallet', 'no nonce', () => new ApiClient(t.app).post('/api/auth/wallet', { walletAddress: '9c8UbipZXZR8dtjGJGLRf8aArxvby3tUXZWgPtmghnx9', message: 'x', signature: 'eA==' })],
      ['POST /api/auth/second-factor', 'no pending sign-in', () => new ApiClient(t.app).post('/api/auth/second-factor', { code: '123456' })],
      ['POST /api/forward-targets/resend', 'not a target', () => ctx.a.post('/api/forward-targets/resend', { email: 'nobody@example.com' })],
    ])
    // another user's mailbox lists nothing; the other ids are refused
    const answers = seen.slice(-14, -6).map((s) => `${s.route} (${s.scenario}) → ${s.status}`)
    expect(answers.filter((a) => a.endsWith('→ 200'))).toEqual(['GET /api/emails (another user\'s mailbox) → 200', 'GET /api/emails (by conversation) → 200'])
    expect(seen.at(-13)?.body).toEqual({ success: true, emails: [] })
    expect(seen.slice(-6).map((s) => s.status)).toEqual([400, 400, 401, 401, 401, 404])
    // the search box: operators, and a search it cannot mean
    await expectDocumented([
      ['GET /api/emails', 'a search', () => ctx.a.get(`/api/emails?by=conversation&q=${encodeURIComponent('from:someone is:unread')}`)],
      ['GET /api/emails', 'bad search', () => ctx.a.get('/api/emails?q=is:important')],
    ])
    expect(seen.slice(-2).map((s) => s.status)).toEqual([200, 400])
  })

  it('answers as documented to the session cookie from another Origin', async () => {
    const changing = appRoutes().filter((r) => methodOf(r) !== 'GET')
    await expectDocumented(changing.map((route) => [route, 'another Origin', () =>
      ctx.a.request(methodOf(route), fill(route, ctx.r), {}, { origin: 'https://evil.example' })]))
    // RFC 8058's one-click POST comes from anywhere and reads no cookie: its signed token is its
    // authority (api/contacts/unsubscribe-routes.ts). Here its answer is the bad body's 400.
    const tokenOnly = ['POST /api/unsubscribe/{token}']
    for (const route of tokenOnly) expect(`${route} → ${seen.findLast((s) => s.route === route && s.scenario === 'another Origin')?.status}`).toBe(`${route} → 400`)
    for (const route of changing.filter((r) => !tokenOnly.includes(r))) expect(`${route} → ${seen.findLast((s) => s.route === route && s.scenario === 'another Origin')?.status}`).toBe(`${route} → 403`)
  })

  it('answers as documented to a session whose address is not confirmed yet', async () => {
    // a signed-in account whose address is not confirmed (as one whose address was unconfirmed since
    // it signed in): the routes that need a confirmed address answer 403 verificationRequired
    const { client: unconfirmed, user, r } = await ctx.fresh()
    await t.db.sql`update users set email_verified_at = null where id = ${user.id}`
    // ending this session and deleting the account (both allowed before confirming) last
    const ending = ['DELETE /api/account/sessions/{sessionId}', 'DELETE /api/account']
    const guarded = appRoutes().filter((route) => ROUTE_DESCRIPTIONS[route]?.signedIn && !route.startsWith('GET /api/auth/microsoft'))
      .sort((x, y) => ending.indexOf(x) - ending.indexOf(y))
    await expectDocumented(guarded.map((route) => [route, 'address not confirmed', () =>
      unconfirmed.request(methodOf(route), fill(route, r), methodOf(route) === 'GET' ? undefined : {})]))
    const answers = seen.filter((s) => s.scenario === 'address not confirmed')
    expect(answers.filter((s) => s.status === 401 && s.route !== 'DELETE /api/account')).toEqual([])
    expect(answers.filter((s) => s.status === 403).length).toBeGreaterThan(20)
  })

  it('answers as documented to an API key, a wrong one, and a revoked one', async () => {
    // deletions last, so the other calls find what they name; a user of its own, so A keeps its resources
    const keyed = appRoutes().filter((r) => ROUTE_DESCRIPTIONS[r]?.apiKey).sort((x, y) => Number(x.startsWith('DELETE')) - Number(y.startsWith('DELETE')))
    expect(keyed.length).toBeGreaterThan(0)
    const { client, r } = await ctx.fresh()
    const keyOfA = { body: { apiKey: { key: r.apiKey } } }
    const revoked = await client.json(client.post('/api/api-keys', { name: 'revoked' }))
    await client.delete(`/api/api-keys/${revoked.body.apiKey.id}`)
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
    const calls: [string, string, () => Promise<Response>][] = []
    for (const route of keyed) {
      const body = methodOf(route) === 'GET' ? undefined : {}
      calls.push([route, 'API key', () => new ApiClient(t.app).request(methodOf(route), fill(route, r), body, bearer(keyOfA.body.apiKey.key))])
      calls.push([route, "API key, another user's ids", () => new ApiClient(t.app).request(methodOf(route), fill(route, ofB), body, bearer(keyOfA.body.apiKey.key))])
      calls.push([route, 'wrong API key', () => new ApiClient(t.app).request(methodOf(route), fill(route, ctx.r), body, bearer(`vm_${'x'.repeat(44)}`))])
      calls.push([route, 'revoked API key', () => new ApiClient(t.app).request(methodOf(route), fill(route, ctx.r), body, bearer(revoked.body.apiKey.key))])
    }
    await expectDocumented(calls)
    for (const route of keyed) expect(`${route} → ${seen.findLast((s) => s.route === route && s.scenario === 'wrong API key')?.status}`).toBe(`${route} → 401`)
  })

  it('answers as documented to a bad body', async () => {
    const withBody = appRoutes().filter((route) => operationOf(route)?.requestBody)
    expect(withBody.length).toBeGreaterThan(20)
    await expectDocumented(withBody.map((route) => [route, 'bad body', () => ctx.a.request(methodOf(route), fill(route, ctx.r), '"not an object"')]))
    // and each refuses it with 400
    for (const route of withBody) expect(`${route} → ${seen.findLast((s) => s.route === route && s.scenario === 'bad body')?.status}`).toBe(`${route} → 400`)
  })

  it('answers as documented when the call should succeed, with the documented success status', async () => {
    const problems: string[] = []
    // deletions last, so the other calls find what they name
    const order = appRoutes().sort((x, y) => Number(x.startsWith('DELETE')) - Number(y.startsWith('DELETE')))
    for (const route of order) {
      const probe = OPERATION_PROBES[route]
      if (typeof probe !== 'function') continue
      const res = await probe(ctx)
      const sent = requestMismatch(route)
      if (sent) problems.push(sent)
      const problem = await mismatch(route, 'success', res)
      if (problem) problems.push(problem)
      else if (res.status !== ROUTE_RESPONSES[route]?.ok.status) problems.push(`${route} (success) → ${res.status}, documented ${ROUTE_RESPONSES[route]?.ok.status}`)
    }
    expect(problems).toEqual([])
  }, 180_000)
})
