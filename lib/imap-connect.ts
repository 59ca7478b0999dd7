// Opens an IMAP session to a user's mailbox: the host is resolved and refused when
// it is private (unless ALLOW_PRIVATE_NETWORKS), the socket goes to the address that was checked,
// and TLS verifies the certificate for the name the user gave (SNI = that name; system CAs plus
// NODE_EXTRA_CA_CERTS, or the extra CA of a test). Every failure becomes an ImapConnectError
// whose message is a sentence for the user; nothing here logs an address, host or secret.
import net from 'node:net'
import tls from 'node:tls'
import { ImapFlow } from 'imapflow'
import { BlockedAddressError, resolvePublicAddress, type Lookup } from './ssrf-guard.ts'
import { ImapLimitError, parserLimits } from './imap-limits.ts'
import { isOAuth, type ImapCredentials } from './mailbox-credentials.ts'
import { imapSecureContext, keepTlsSession, storedTlsSession, tlsSessionKey } from './tls-reuse.ts'


/** `oauth-expired`: Microsoft no longer renews an Outlook account's sign-in; the user must sign in again. */
export type ImapFailure = 'auth' | 'oauth-expired' | 'host-not-found' | 'blocked' | 'tls' | 'timeout' | 'refused' | 'connection' | 'internal'
  /** the server went over a byte budget or a deadline of ours (imap-limits.ts) */
  | 'too-large' | 'deadline'

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
  /** the largest message the service reads (MAX_MESSAGE_BYTES, 25 MiB unless given): imapflow's parser limits follow it */
  maxMessageBytes?: number
  /** an extra trusted CA (PEM), added to the system's */
  ca?: string
  lookup?: Lookup
  /** closes the connection at once when aborted (the sync process is stopping) */
  signal?: AbortSignal
}

/** Node's and OpenSSL's codes for a certificate that could not be verified, or a TLS handshake that failed. */
export const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_CERT|ERR_SSL|HOSTNAME_MISMATCH|ERR_TLS)/
/** Codes of a server (or network) that did not answer in time: DNS, TCP, the greeting, a silent socket. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ETIMEOUT', 'GREETING_TIMEOUT', 'CONNECT_TIMEOUT', 'EAI_AGAIN'])

/**
 * Sorts any error from DNS, TCP, TLS or IMAP into the user's sentence, by the error's code and the
 * step that failed, never by the words of its message (a greeting timeout's text says "Maybe should
 * use TLS?", and a server's words are its own).
 */
const refusedError = (port: number, reachedBefore: boolean) => new ImapConnectError('refused', reachedBefore
  ? `The mail server could not be reached (it refused the connection on port ${port}). It will be tried again.`
  : `The mail server refused the connection on port ${port}. Check the port and security setting.`)

/**
 * `reachedBefore`: the account has synced before, so a refused connection is a server that is
 * down for now, not a wrong port or security setting.
 */
export function classifyImapError(error: unknown, creds: Pick<ImapCredentials, 'host' | 'port'>, { reachedBefore = false } = {}): ImapConnectError {
  if (error instanceof ImapConnectError) return error.kind === 'refused' && reachedBefore ? refusedError(creds.port, true) : error
  if (error instanceof ImapLimitError) {
    if (error.limit === 'too-large') return new ImapConnectError('too-large', 'The mail server sent far more data than it announced, and the connection was closed. It will be tried again later.')
    if (error.limit === 'stopped') return new ImapConnectError('connection', 'The sync was stopped while the service restarted. It will be tried again.')
    return new ImapConnectError('deadline', 'The mail server took too long to answer, and the connection was closed. It will be tried again later.')
  }
  const e = error as { code?: string; authenticationFailed?: boolean; tlsFailed?: boolean; serverResponseCode?: string }
  if (e?.authenticationFailed && e.serverResponseCode !== 'UNAVAILABLE') {
    return new ImapConnectError('auth', 'The mail server refused the e-mail address or password. Check them (Gmail and Yahoo need an app password).')
  }
  const code = typeof e?.code === 'string' ? e.code : ''
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return new ImapConnectError('host-not-found', `The mail server ${creds.host} could not be found. Check the server name.`)
  if (TIMEOUT_CODES.has(code)) return new ImapConnectError('timeout', 'The mail server did not answer in time. It will be tried again.')
  // imapflow's parser refused a literal, line or response over its limits (parserLimits) and closed the connection
  if (code === 'LiteralTooLarge' || code === 'ResponseTooLarge' || code === 'LineTooLarge') return classifyImapError(new ImapLimitError('too-large', 'parse'), creds)
  // required STARTTLS the server does not offer (imapflow's _failSTARTTLS: marked, without a code),
  // or plaintext slipped in before the handshake: no certificate was ever shown
  if ((e?.tlsFailed && !code) || code === 'STARTTLS_INJECTION') {
    return new ImapConnectError('tls', `The mail server does not offer a secure connection (STARTTLS) on port ${creds.port}. Use SSL/TLS (port 993) or check the port and security setting.`)
  }
  if (TLS_CODES.test(code)) return new ImapConnectError('tls', 'The secure connection to the mail server failed: its certificate could not be verified.')
  if (code === 'ECONNREFUSED') return refusedError(creds.port, reachedBefore)
  // a socket error (a Node code such as ECONNRESET, during the TLS upgrade too) or one imapflow raised on the session
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
  const sessionKey = tlsSessionKey({ address, port: creds.port, servername: name, ca: options.ca })
  const session = storedTlsSession(sessionKey)
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
      // TLS 1.2 at least, the system's CAs plus the extra one: built once (lib/tls-reuse.ts)
      secureContext: imapSecureContext(options.ca),
      ...(net.isIP(name) ? {} : { servername: name }),
      checkServerIdentity: (_host: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(name, cert),
      // resumes the last session with this server (lib/tls-reuse.ts), also after STARTTLS
      ...(session ? { session } : {}),
    },
    logger: false,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: Math.max(options.timeoutMs * 4, 60_000),
    disableAutoIdle: true,
    qresync: true,
    ...parserLimits(options.maxMessageBytes ?? 25 * 1024 * 1024),
  })
  // a socket error after connect must never become an uncaught 'error' event
  client.on('error', () => {})
  // the whole login has a deadline: imapflow's own timeouts fire only on silence, and a server can
  // keep talking (an endless CAPABILITY or greeting) for ever
  let limit: ImapLimitError | undefined
  const stop = (reason: ImapLimitError) => {
    limit ??= reason
    client.close()
  }
  const deadline = setTimeout(() => stop(new ImapLimitError('deadline', 'login')), options.timeoutMs * 4)
  const onAbort = () => stop(new ImapLimitError('stopped', 'login'))
  options.signal?.addEventListener('abort', onAbort)
  try {
    if (options.signal?.aborted) throw new ImapLimitError('stopped', 'login')
    await client.connect()
    if (limit) throw limit
    // after the login the server's ticket has come: the next login to it resumes
    keepTlsSession(sessionKey, tlsSocketOf(client))
  } catch (error) {
    client.close()
    throw classifyImapError(limit ?? error, creds)
  } finally {
    clearTimeout(deadline)
    options.signal?.removeEventListener('abort', onAbort)
  }
  return client
}

/** The client's TLS socket (imapflow's own field, not in its types), after an implicit TLS or STARTTLS login. */
export function tlsSocketOf(client: ImapFlow): tls.TLSSocket | undefined {
  const socket = (client as unknown as { socket?: unknown }).socket
  return socket instanceof tls.TLSSocket ? socket : undefined
}

export async function closeImap(client: ImapFlow): Promise<void> {
  try {
    await client.logout()
  } catch {
    client.close()
  }
}
