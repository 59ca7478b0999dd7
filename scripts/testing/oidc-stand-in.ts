// A local stand-in for Google's OpenID Connect endpoints: checks PKCE and hands out the
// profile the test chose for each code.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Profile { sub: string; email?: string; email_verified?: boolean; given_name?: string; family_name?: string; picture?: string }

export interface OidcStandIn {
  url: string
  env: Record<string, string>
  /** Issues a code for `profile` bound to the PKCE challenge the app sent. */
  authorize(authorizationUrl: string, profile: Profile): { code: string; state: string }
  /** how many code exchanges reached the token endpoint */
  readonly tokenRequests: number
  close(): Promise<void>
}

export async function startOidcStandIn(): Promise<OidcStandIn> {
  const codes = new Map<string, { challenge: string; profile: Profile }>()
  const tokens = new Map<string, Profile>()
  let tokenRequests = 0
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x')
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      tokenRequests++
      let raw = ''
      for await (const chunk of req) raw += chunk
      const form = new URLSearchParams(raw)
      const grant = codes.get(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      if (!grant || grant.challenge !== challenge) return send(400, { error: 'invalid_grant' })
      codes.delete(form.get('code')!)
      const token = randomBytes(16).toString('hex')
      tokens.set(token, grant.profile)
      return send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, id_token: 'unused' })
    }
    if (req.method === 'GET' && url.pathname === '/userinfo') {
      const profile = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''))
      return profile ? send(200, profile) : send(401, { error: 'invalid_token' })
    }
    send(404, { error: 'not_found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    env: {
      GOOGLE_CLIENT_ID: 'test-client',
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_AUTH_URL: `${url}/authorize`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_USERINFO_URL: `${url}/userinfo`,
    },
    authorize(authorizationUrl, profile) {
      const params = new URL(authorizationUrl).searchParams
      if (params.get('code_challenge_method') !== 'S256') throw new Error('PKCE S256 expected')
      const code = randomBytes(12).toString('hex')
      codes.set(code, { challenge: params.get('code_challenge')!, profile })
      return { code, state: params.get('state')! }
    },
    get tokenRequests() {
      return tokenRequests
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
