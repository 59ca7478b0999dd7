// The https URL of a forward's List-Unsubscribe and block link (issue 30), used with no sign-in:
// the signed token in the path is the whole authority (lib/link-token.ts). POST acts, as RFC 8058
// §3.1 has a mail client do it (body `List-Unsubscribe=One-Click`, no cookie, from the mail
// provider's server): the CSRF guard lets this path through (api/http/csrf.ts), and the route
// reads no cookie. GET never acts (link scanners and previews fetch URLs in mail): it sends the
// browser to the confirmation page, which asks `details` and posts when the user confirms.
import { Hono } from 'hono'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { describeLinkToken, useLinkToken, type LinkRefusal } from '../../db/link-action.ts'
import type { LinkDetailsView } from '../../shared/sender-block-schemas.ts'

const TOKEN = /^[a-z2-7]{50}$/i

const REFUSALS: Record<LinkRefusal, { status: 400 | 404 | 410; message: string }> = {
  invalid: { status: 404, message: 'This link is not valid' },
  gone: { status: 404, message: 'This alias or sender no longer exists' },
  expired: { status: 410, message: 'This link has expired' },
  used: { status: 410, message: 'This link was used already' },
}

export const unsubscribeRoutes = new Hono<AppEnv>()
  .get('/:token', (c) => c.redirect(`/unsubscribe/${encodeURIComponent(c.req.param('token'))}`, 302))
  .get('/:token/details', async (c) => {
    const token = c.req.param('token')
    const { sql, config } = c.var.deps
    const result = TOKEN.test(token) ? await describeLinkToken(sql, config.secretKey, token) : 'invalid'
    const view: LinkDetailsView = typeof result === 'string' ? { status: result } : { status: 'ok', ...result }
    return c.json({ link: view })
  })
  .post('/:token', async (c) => {
    const token = c.req.param('token')
    const { sql, config } = c.var.deps
    // RFC 8058 §3.1: the body is List-Unsubscribe=One-Click (form-encoded or multipart); our page posts the same
    const form = await c.req.parseBody().catch(() => ({} as Record<string, unknown>))
    if (form['List-Unsubscribe'] !== 'One-Click') {
      return c.json({ message: 'The body must be List-Unsubscribe=One-Click', errors: { 'List-Unsubscribe': ['Must be One-Click'] } }, 400)
    }
    // the token is checked first (HMAC-signed: there is nothing to guess), and only refused uses
    // (forged, expired, used, gone) count against the client address (token-ip, as other mailed
    // links). A link that works is always honoured: one-click POSTs come from shared provider
    // servers, where one sender's junk must not hold back other people's unsubscribes.
    const result = TOKEN.test(token) ? await useLinkToken(sql, config.secretKey, token, c.req.header('x-veilmail-page') === '1' ? 'link' : 'one-click') : 'invalid'
    if (typeof result === 'string') {
      const ip = clientIp(c)
      const hit = await countAction(c, 'token-ip', ip, { ipAddress: ip })
      if (!hit.allowed) return tooMany(c, hit, 'Too many link attempts from your address. Please try again later.')
      const refusal = REFUSALS[result]
      return c.json({ message: refusal.message }, refusal.status)
    }
    return c.json({ message: result.action === 'block' ? 'Sender blocked' : 'Alias paused', ...result })
  })
