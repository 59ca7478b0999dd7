// A cookie-keeping client for the real app (app.request), one per simulated browser.
import type { Hono } from 'hono'
import { latestLink, mailboxOf, tokenOf } from './mailbox.ts'

type App = Pick<Hono<any>, 'request'>

export class ApiClient {
  cookies = new Map<string, string>()
  app: App
  origin: string
  constructor(app: App, origin = 'http://localhost:3000') {
    this.app = app
    this.origin = origin
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const init: RequestInit = { method, headers: { ...headers } }
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body)
      ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
    }
    if (this.cookies.size) (init.headers as Record<string, string>).cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await this.app.request(this.origin + path, init)
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const i = pair.indexOf('=')
      const name = pair.slice(0, i)
      const value = pair.slice(i + 1)
      if (!value || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers)
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers)
  put = (path: string, body?: unknown) => this.request('PUT', path, body)
  patch = (path: string, body?: unknown) => this.request('PATCH', path, body)
  delete = (path: string) => this.request('DELETE', path)

  async json<T = any>(res: Promise<Response> | Response): Promise<{ status: number; body: T }> {
    const r = await res
    return { status: r.status, body: (await r.json()) as T }
  }

  /**
   * Registers a fresh e-mail account, follows the verification link of the mail it was sent (the
   * app must have a mailbox attached: createTestApp, MailEnv.app) and keeps the session that starts.
   */
  async register(email = `user-${crypto.randomUUID()}@example.com`, password = 'correct horse battery') {
    const res = await this.post('/api/auth/register', { email, password })
    if (res.status !== 202) throw new Error(`register failed: ${res.status} ${await res.text()}`)
    const mailbox = mailboxOf(this.app)
    if (!mailbox) throw new Error('register: no mailbox attached to this app (use createTestApp or MailEnv.app)')
    const token = tokenOf(await latestLink(mailbox, email, '/verify-email'))
    const verified = await this.post('/api/auth/verify-email', { token })
    if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${await verified.text()}`)
    return { email, password, user: ((await verified.json()) as { user: { id: string } }).user }
  }

  /** Follows the confirmation link mailed to a new forward target (as its owner clicking it would). */
  async confirmForwardTarget(target: string) {
    const mailbox = mailboxOf(this.app)
    if (!mailbox) throw new Error('confirmForwardTarget: no mailbox attached to this app')
    const res = await this.post('/api/auth/confirm-target', { token: tokenOf(await latestLink(mailbox, target, '/confirm-target')) })
    if (res.status !== 200) throw new Error(`confirm failed: ${res.status} ${await res.text()}`)
  }
}
