// Opens an IMAP session to a user's mailbox: the host is resolved and refused when
// it is private (unless ALLOW_PRIVATE_NETWORKS), the socket goes to the address that was checked,
// and TLS verifies the certificate for the name the user gave (SNI = that name; system CAs plus
// NODE_EXTRA_CA_CERTS, or the extra CA of a test). Every failure becomes an ImapConnectError
// whose message is a sentence for the user; nothing here logs an address, host or secret.
import net from 'node:net'
import tls from 'node:tls'
import { ImapFlow } from 'imapflow'
import { BlockedAddressError, resolvePublicAddress, type Lookup } from '../../lib/ssrf-guard.ts'

interface ImapServer {
  email: string
  host: string
  port: number
  /** true: TLS from the start (993); false: STARTTLS, required (143) */
  secure: boolean
}

/** The decoded credentials: base64 JSON as the client sends them, sealed at rest. */
export interface PasswordCredentials extends ImapServer {
  password: string
}

/** An Outlook account's (tokenType "oauth2"), from Microsoft sign-in; sealed at rest. */
export interface OAuthCredentials extends ImapServer {
  tokenType: 'oauth2'
  accessToken: string
  refreshToken: string
  /** when the access token stops working (ms since the epoch) */
  expiresAt: number
}

export type ImapCredentials = PasswordCredentials | OAuthCredentials

export const isOAuth = (creds: ImapCredentials): creds is OAuthCredentials => 'tokenType' in creds && creds.tokenType === 'oauth2'

/** `oauth-expired`: Microsoft no longer renews an Outlook account's sign-in; the user must sign in again. */
export type ImapFailure = 'auth' | 'oauth-expired' | 'host-not-found' | 'blocked' | 'tls' | 'timeout' | 'refused' | 'connection' | 'internal'

export class ImapConnectError extends Error {
  override name = 'ImapConnectError'
  readonly kind: ImapFailure
  constructor(kind: ImapFailure, message: string) {
    super(message)
    this.kind = kind
  }

  /** A refused password or a forbidden host will not fix itself: no retry, the schedule stops. */
  get permanent(): boolean {
    return this.kind === 'auth' || this.kind === 'oauth-expired' || this.kind === 'blocked' || this.kind === 'tls' || this.kind === 'host-not-found'
  }

  /** The server or Microsoft refused who we are: the user must fix the account. */
  get credentialsRefused(): boolean {
    return this.kind === 'auth' || this.kind === 'oauth-expired'
  }
}

export interface ImapConnectOptions {
  allowPrivate: boolean
  timeoutMs: number
  /** an extra trusted CA (PEM), added to the system's */
  ca?: string
  lookup?: Lookup
}

const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_CERT|ERR_SSL|HOSTNAME_MISMATCH|ERR_TLS)/

/** Sorts any error from DNS, TCP, TLS or IMAP into the user's sentence. */
export function classifyImapError(error: unknown, creds: Pick<ImapCredentials, 'host' | 'port'>): ImapConnectError {
  if (error instanceof ImapConnectError) return error
  const e = error as { code?: string; authenticationFailed?: boolean; tlsFailed?: boolean; serverResponseCode?: string; message?: string }
  if (e?.authenticationFailed && e.serverResponseCode !== 'UNAVAILABLE') {
    return new ImapConnectError('auth', 'The mail server refused the e-mail address or password. Check them (Gmail and Yahoo need an app password).')
  }
  const code = e?.code ?? ''
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return new ImapConnectError('host-not-found', `The mail server ${creds.host} could not be found. Check the server name.`)
  // required STARTTLS the server does not offer (imapflow, doSTARTTLS): no certificate was ever shown
  if (e?.tlsFailed && !code && /STARTTLS/.test(e.message ?? '')) {
    return new ImapConnectError('tls', `The mail server does not offer a secure connection (STARTTLS) on port ${creds.port}. Use SSL/TLS (port 993) or check the port and security setting.`)
  }
  if (TLS_CODES.test(code) || /certificate|ssl|tls/i.test(e?.message ?? '')) {
    return new ImapConnectError('tls', 'The secure connection to the mail server failed: its certificate could not be verified.')
  }
  if (code === 'ECONNREFUSED') return new ImapConnectError('refused', `The mail server refused the connection on port ${creds.port}. Check the port and security setting.`)
  if (code === 'ETIMEDOUT' || code === 'GREETING_TIMEOUT' || code === 'CONNECT_TIMEOUT' || code === 'EAI_AGAIN' || /timeout/i.test(e?.message ?? '')) {
    return new ImapConnectError('timeout', 'The mail server did not answer in time. It will be tried again.')
  }
  // a socket error (a Node code such as ECONNRESET) or one imapflow raised on the session
  const network = /^E[A-Z]+$/.test(code) || code === 'NoConnection' || e?.serverResponseCode !== undefined || 'executedCommand' in (e ?? {})
  if (network) return new ImapConnectError('connection', 'The connection to the mail server was lost. It will be tried again.')
  return new ImapConnectError('internal', 'The sync failed on our side. It will be tried again.')
}

/** A logged-in ImapFlow client, or an ImapConnectError. */
export async function connectImap(creds: ImapCredentials, options: ImapConnectOptions): Promise<ImapFlow> {
  let address: string
  try {
    address = (await resolvePublicAddress(creds.host, { allowPrivate: options.allowPrivate, lookup: options.lookup })).address
  } catch (error) {
    if (error instanceof BlockedAddressError && /private|reserved/.test(error.message)) {
      throw new ImapConnectError('blocked', 'The mail server is on a private or local network address, which is not allowed.')
    }
    if (error instanceof BlockedAddressError) throw new ImapConnectError('host-not-found', `The mail server ${creds.host} could not be found. Check the server name.`)
    throw classifyImapError(error, creds)
  }
  const name = creds.host.replace(/^\[|\]$/g, '')
  const client = new ImapFlow({
    host: address,
    port: creds.port,
    secure: creds.secure,
    // STARTTLS (RFC 3501 §6.2.1) is required when not on implicit TLS: never a plaintext login
    doSTARTTLS: creds.secure ? undefined : true,
    // the certificate is checked for the name the user gave, not the address we connect to
    servername: net.isIP(name) ? undefined : name,
    // an Outlook account logs in with its access token (SASL XOAUTH2, as Outlook's IMAP offers it)
    auth: isOAuth(creds) ? { user: creds.email, accessToken: creds.accessToken } : { user: creds.email, pass: creds.password },
    tls: {
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
      ...(net.isIP(name) ? {} : { servername: name }),
      ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}),
      checkServerIdentity: (_host: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(name, cert),
    },
    logger: false,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: Math.max(options.timeoutMs * 4, 60_000),
    disableAutoIdle: true,
    qresync: true,
  })
  // a socket error after connect must never become an uncaught 'error' event
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (error) {
    client.close()
    throw classifyImapError(error, creds)
  }
  return client
}

export async function closeImap(client: ImapFlow): Promise<void> {
  try {
    await client.logout()
  } catch {
    client.close()
  }
}
