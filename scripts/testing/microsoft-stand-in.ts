// A local stand-in for Microsoft's identity platform, as the Outlook connection uses it: the
// authorization endpoint's parameters checked, a token endpoint for the authorization-code
// grant (client secret by HTTP Basic, PKCE S256, redirect URI; RFC 6749 §4.1.3, RFC 7636 §4.6)
// and the refresh-token grant (refresh tokens rotate: the old one stops working, RFC 6749 §6),
// and an RFC 7662 introspection endpoint that the test Dovecot's oauth2 passdb asks whether an
// access token is live and whose mailbox it opens.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const STAND_IN_CLIENT = { id: 'veilmail-test-client', secret: 'veilmail-test-secret' }

export interface MicrosoftStandIn {
  url: string
  /** MICROSOFT_* variables pointing the app at this stand-in */
  env: Record<string, string>
  /** RFC 7662 introspection endpoint, for Dovecot's oauth2 passdb */
  introspectionUrl: string
  /** The user consents at the authorization URL the app redirected to: a code bound to its PKCE challenge. */
  authorize(authorizationUrl: string, account: Account): { code: string; state: string; redirectUri: string }
  /** lifetime (expires_in) of the access tokens issued from now on */
  accessTokenSeconds: number
  /** true: the token endpoint answers 503, as during an outage */
  tokenEndpointDown: boolean
  /** Every access token issued so far stops working (as when one outlives its hour). */
  expireAccessTokens(): void
  /** Every refresh token issued so far is revoked (password change, consent withdrawn). */
  revokeRefreshTokens(): void
  /** every access and refresh token handed out, to look for in places they must never appear */
  readonly issued: readonly string[]
  /** token endpoint requests by grant type */
  readonly grants: { authorization_code: number; refresh_token: number }
  /** access tokens Dovecot asked about, in order */
  readonly introspected: readonly string[]
  close(): Promise<void>
}

/** whose mailbox the user consents to; `claims` replace or add ID token claims (hostile cases) */
export interface Account { email: string; claims?: Record<string, unknown> }

interface Grant { challenge: string; redirectUri: string; account: Account }

const token = () => randomBytes(24).toString('base64url')
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let raw = ''
  for await (const chunk of req) raw += chunk
  return new URLSearchParams(raw)
}

export async function startMicrosoftStandIn(): Promise<MicrosoftStandIn> {
  const codes = new Map<string, Grant>()
  const accessTokens = new Map<string, string>() // token → mailbox
  const refreshTokens = new Map<string, string>()
  const issued: string[] = []
  const introspected: string[] = []
  const grants = { authorization_code: 0, refresh_token: 0 }
  let url = ''

  const issue = (email: string) => {
    const access = token()
    const refresh = token()
    accessTokens.set(access, email)
    refreshTokens.set(refresh, email)
    issued.push(access, refresh)
    return { access, refresh }
  }

  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url!, 'http://x').pathname
    const send = (status: number, body: object) => {
      // no keep-alive: Dovecot's HTTP client would reuse a connection just as Node's 5 s idle
      // timeout closes it, and answer the login "temporarily unavailable"
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' })
      res.end(JSON.stringify(body))
    }
    if (req.method === 'POST' && path === '/common/oauth2/v2.0/token') {
      if (standIn.tokenEndpointDown) return send(503, { error: 'temporarily_unavailable' })
      const basic = `Basic ${Buffer.from(`${STAND_IN_CLIENT.id}:${STAND_IN_CLIENT.secret}`).toString('base64')}`
      if (req.headers.authorization !== basic) return send(401, { error: 'invalid_client' })
      const form = await readForm(req)
      if (form.get('grant_type') === 'authorization_code') {
        grants.authorization_code++
        const code = form.get('code') ?? ''
        const grant = codes.get(code)
        codes.delete(code) // a code is good once, whatever happens (RFC 6749 §4.1.2)
        const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url')
        if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri')) return send(400, { error: 'invalid_grant' })
        const { access, refresh } = issue(grant.account.email)
        const idToken = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({
          iss: `${url}/v2.0`, aud: STAND_IN_CLIENT.id, sub: createHash('sha256').update(grant.account.email).digest('hex').slice(0, 20),
          email: grant.account.email, preferred_username: grant.account.email, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600,
          ...grant.account.claims,
        })}.c2lnbmF0dXJl`
        return send(200, { token_type: 'Bearer', scope: 'https://outlook.office.com/IMAP.AccessAsUser.All', expires_in: standIn.accessTokenSeconds, access_token: access, refresh_token: refresh, id_token: idToken })
      }
      if (form.get('grant_type') === 'refresh_token') {
        grants.refresh_token++
        const old = form.get('refresh_token') ?? ''
        const email = refreshTokens.get(old)
        if (!email) return send(400, { error: 'invalid_grant', error_description: 'AADSTS70008: The refresh token has expired or was revoked.' })
        refreshTokens.delete(old)
        const { access, refresh } = issue(email)
        return send(200, { token_type: 'Bearer', scope: form.get('scope') ?? '', expires_in: standIn.accessTokenSeconds, access_token: access, refresh_token: refresh })
      }
      return send(400, { error: 'unsupported_grant_type' })
    }
    if (req.method === 'POST' && path === '/introspect') {
      const presented = (await readForm(req)).get('token') ?? ''
      introspected.push(presented)
      const email = accessTokens.get(presented)
      return send(200, email ? { active: true, username: email, token_type: 'Bearer' } : { active: false })
    }
    send(404, { error: 'not_found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const standIn: MicrosoftStandIn = {
    url,
    env: {
      MICROSOFT_CLIENT_ID: STAND_IN_CLIENT.id,
      MICROSOFT_CLIENT_SECRET: STAND_IN_CLIENT.secret,
      MICROSOFT_AUTH_URL: `${url}/common/oauth2/v2.0/authorize`,
      MICROSOFT_TOKEN_URL: `${url}/common/oauth2/v2.0/token`,
    },
    introspectionUrl: `${url}/introspect`,
    accessTokenSeconds: 3600,
    tokenEndpointDown: false,
    authorize(authorizationUrl, account) {
      const target = new URL(authorizationUrl)
      const params = target.searchParams
      const scopes = (params.get('scope') ?? '').split(' ')
      if (`${target.origin}${target.pathname}` !== standIn.env.MICROSOFT_AUTH_URL) throw new Error(`not our authorization endpoint: ${target.origin}${target.pathname}`)
      if (params.get('response_type') !== 'code' || params.get('client_id') !== STAND_IN_CLIENT.id) throw new Error('authorization-code request for our client expected')
      if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) throw new Error('PKCE S256 expected')
      for (const scope of ['https://outlook.office.com/IMAP.AccessAsUser.All', 'offline_access']) if (!scopes.includes(scope)) throw new Error(`scope ${scope} missing`)
      const code = token()
      const redirectUri = params.get('redirect_uri')!
      codes.set(code, { challenge: params.get('code_challenge')!, redirectUri, account })
      return { code, state: params.get('state')!, redirectUri }
    },
    expireAccessTokens: () => accessTokens.clear(),
    revokeRefreshTokens: () => refreshTokens.clear(),
    issued,
    grants,
    introspected,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  return standIn
}
