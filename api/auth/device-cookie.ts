// "Known device" cookies (OWASP Authentication Cheat Sheet, device cookies): a browser that has
// signed in to an account carries a cookie signed for that account. Its sign-in attempts are
// spaced on a counter of their own instead of the account's shared one, so strangers guessing the
// password cannot keep the owner's browser out. The cookie signs no one in and proves nothing but
// "this browser signed in to this account before"; it only chooses which counter an attempt uses.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { Config } from '../../lib/config.ts'
import type { AppEnv } from '../context.ts'

const MAX_AGE_SECONDS = 365 * 86400
const cookieName = (config: Config) => (config.secureCookies ? '__Secure-veilmail_device' : 'veilmail_device')
const keys = new Map<string, Buffer>()

function sign(secretKey: string, account: string, id: string): Buffer {
  let key = keys.get(secretKey)
  if (!key) keys.set(secretKey, (key = Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'device-cookie', 32))))
  return createHmac('sha256', key).update(`${account}\n${id}`).digest()
}

/** The device id when this browser's cookie was issued for `account`, else undefined. */
export function knownDevice<E extends AppEnv>(c: Context<E>, account: string): string | undefined {
  const [id, mac] = (getCookie(c, cookieName(c.var.deps.config)) ?? '').split('.')
  if (!id || !mac || !/^[\w-]{22}$/.test(id)) return undefined
  const expected = sign(c.var.deps.config.secretKey, account, id)
  const given = Buffer.from(mac, 'base64url')
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined
}

/** After a successful sign-in: this browser is a known device for `account` (keeps its id if it had one). */
export function rememberDevice<E extends AppEnv>(c: Context<E>, account: string): void {
  const { config } = c.var.deps
  const id = knownDevice(c, account) ?? randomBytes(16).toString('base64url')
  setCookie(c, cookieName(config), `${id}.${sign(config.secretKey, account, id).toString('base64url')}`, {
    httpOnly: true, sameSite: 'Lax', secure: config.secureCookies, path: '/api/auth', maxAge: MAX_AGE_SECONDS,
  })
}
