// Logging in to a connected mailbox, for the sync and the write-back alike. The sealed
// credentials are opened; an Outlook account logs in with its OAuth2 access token (SASL XOAUTH2),
// renewed with its refresh token (RFC 6749 §6) before it runs out, and once more when the server
// refuses it anyway (revoked, or cut short). The renewed tokens are sealed and saved before they
// are used. When Microsoft refuses the renewal, the account gets the Outlook-expired marker: only
// signing in again (/api/auth/microsoft) brings it back.
import type { ImapFlow } from 'imapflow'
import type { OAuth2Tokens } from 'arctic'
import type { Sql } from './client.ts'
import { getProviderForSync, updateProviderCredentials, type ProviderForSync } from './email-providers.ts'
import type { Config } from '../lib/config.ts'
import { log } from '../lib/log.ts'
import { isOAuth, openCredentials, sealCredentials, type ImapCredentials, type OAuthCredentials } from '../lib/mailbox-credentials.ts'
import { OUTLOOK_EXPIRED_MESSAGE } from '../shared/outlook-connection.ts'
import { connectImap, ImapConnectError } from '../lib/imap-connect.ts'

export interface LoginDeps {
  sql: Sql
  config: Config
  /** an extra trusted CA for IMAP servers (PEM), besides the system's and NODE_EXTRA_CA_CERTS */
  imapCa?: string
  /** aborted when the process stops: every IMAP connection is closed at once */
  stopSignal?: AbortSignal
}

/** An access token with less than this left is renewed first, so it cannot run out during a login. */
const RENEW_MARGIN_MS = 5 * 60_000
/** pg_advisory_xact_lock namespace of "this account's tokens are being renewed". */
const RENEW_LOCK = 7_461_014

const NOT_CONFIGURED = 'Outlook sign-in is not configured on this server (MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET).'
const REFUSED_FRESH = 'Outlook refused a freshly renewed sign-in. Check that IMAP is turned on for this mailbox (Outlook settings, Mail, Forwarding and IMAP).'

/** A logged-in ImapFlow client for the account, or an ImapConnectError with the user's sentence. */
export async function loginMailbox(deps: LoginDeps, provider: ProviderForSync): Promise<ImapFlow> {
  const { config } = deps
  const options = { allowPrivate: config.allowPrivateNetworks, timeoutMs: config.sync.imapTimeoutMs, maxMessageBytes: config.maxMessageBytes, ca: deps.imapCa, signal: deps.stopSignal }
  let creds = openCredentials(config, provider)
  if (!isOAuth(creds)) return connectImap(creds, options)
  let renewed = false
  if (creds.expiresAt - Date.now() < RENEW_MARGIN_MS) {
    creds = await renewOutlookTokens(deps, provider.id, creds)
    renewed = true
  }
  try {
    return await connectImap(creds, options)
  } catch (error) {
    if (!(error instanceof ImapConnectError) || error.kind !== 'auth') throw error
    if (renewed) throw new ImapConnectError('auth', REFUSED_FRESH)
  }
  // refused before its time (revoked, or the server's clock): renew once and try again
  creds = await renewOutlookTokens(deps, provider.id, creds)
  try {
    return await connectImap(creds, options)
  } catch (error) {
    if (error instanceof ImapConnectError && error.kind === 'auth') throw new ImapConnectError('auth', REFUSED_FRESH)
    throw error
  }
}

/**
 * The account's login for a server other than IMAP (its SMTP server, to send as it): an Outlook
 * account's access token is renewed first when it runs out soon, as for an IMAP login.
 */
export async function currentCredentials(deps: LoginDeps, provider: ProviderForSync): Promise<ImapCredentials> {
  const creds = openCredentials(deps.config, provider)
  if (!isOAuth(creds) || creds.expiresAt - Date.now() >= RENEW_MARGIN_MS) return creds
  return renewOutlookTokens(deps, provider.id, creds)
}

/**
 * New tokens for the account, sealed and saved. One renewal per account at a time across every
 * process: Microsoft may rotate the refresh token, and a second renewal with the old one could be
 * refused. A renewal that finds the tokens already renewed by another takes those.
 */
async function renewOutlookTokens(deps: LoginDeps, providerId: string, stale: OAuthCredentials): Promise<OAuthCredentials> {
  const { sql, config } = deps
  if (!config.microsoft) throw new ImapConnectError('auth', NOT_CONFIGURED)
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${RENEW_LOCK}, hashtext(${providerId}))`
    const row = await getProviderForSync(tx, providerId)
    const current = row ? openCredentials(config, row) : undefined
    if (!current || !isOAuth(current)) throw new ImapConnectError('internal', 'The account changed during the sync. It will be tried again.')
    if (current.accessToken !== stale.accessToken) return current
    const { microsoftClient, OAuth2RequestError, OUTLOOK_IMAP_SCOPES } = await import('../lib/microsoft-client.ts')
    let tokens: OAuth2Tokens
    try {
      tokens = await withTimeout(microsoftClient(config).refreshAccessToken(current.refreshToken, OUTLOOK_IMAP_SCOPES), config.sync.imapTimeoutMs)
    } catch (error) {
      // RFC 6749 §5.2: an error answer is a refusal (invalid_grant: expired or revoked), unless Microsoft says it is passing
      if (error instanceof OAuth2RequestError && error.code !== 'temporarily_unavailable' && error.code !== 'server_error') {
        log.warn('outlook.renew_refused', { provider: providerId, code: error.code })
        throw new ImapConnectError('oauth-expired', OUTLOOK_EXPIRED_MESSAGE)
      }
      log.warn('outlook.renew_failed', { provider: providerId, error: (error as Error)?.name })
      throw new ImapConnectError('connection', 'Microsoft could not be reached to renew the Outlook sign-in. It will be tried again.')
    }
    const next: OAuthCredentials = {
      ...current,
      accessToken: tokens.accessToken(),
      refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : current.refreshToken,
      expiresAt: tokens.accessTokenExpiresAt().getTime(),
    }
    await updateProviderCredentials(tx, providerId, sealCredentials(config, providerId, next))
    log.info('outlook.renewed', { provider: providerId })
    return next
  })
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), ms) })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
