// What the IMAP logins reuse of TLS. The secure context (trusted CAs, protocol floor) is built once
// per set of CAs instead of per connection: with an extra CA the system's ~150 roots were parsed
// again at every login (12 ms of CPU each on this machine, 0.25 ms without an extra CA).
//
// TLS sessions of the IMAP servers we log in to, kept so the next connection to the same server
// resumes (RFC 8446 §2.2: a PSK from the server's ticket) instead of doing a full handshake: no
// certificate chain sent, parsed and verified again, no signature by the server, one flight less.
// A sync of a thousand accounts on one provider logs in a thousand times per interval.
//
// A session is kept under the address connected to, the port and the name the certificate was
// checked for (with the CA that checked it): it is only offered to the server that issued it, for
// the name it was verified for. The server decides whether to resume; a stale or refused ticket
// is a full handshake. In memory only, bounded, oldest dropped first.
import { createHash } from 'node:crypto'
import tls from 'node:tls'

const contexts = new Map<string, tls.SecureContext>()

/** One secure context per trusted set: the system's roots (and NODE_EXTRA_CA_CERTS), plus `ca` when given. */
export function imapSecureContext(ca?: string): tls.SecureContext {
  const key = trustKey(ca)
  let context = contexts.get(key)
  if (!context) {
    context = tls.createSecureContext({ minVersion: 'TLSv1.2', ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}) })
    contexts.set(key, context)
  }
  return context
}

const trustKey = (ca?: string) => (ca ? createHash('sha256').update(ca).digest('base64url') : 'system')

/** Servers remembered; a session is about 1–2 KB. */
export const MAX_TLS_SESSIONS = 5000

const sessions = new Map<string, Buffer>()

export function tlsSessionKey(parts: { address: string; port: number; servername?: string; ca?: string }): string {
  return `${parts.address}|${parts.port}|${parts.servername ?? ''}|${trustKey(parts.ca)}`
}

export function storedTlsSession(key: string): Buffer | undefined {
  const session = sessions.get(key)
  if (session) {
    // most recently used last: the oldest is the one dropped
    sessions.delete(key)
    sessions.set(key, session)
  }
  return session
}

/** Keeps the session a connected TLS socket now holds (TLS 1.3: the server's latest ticket). */
export function keepTlsSession(key: string, socket: unknown): void {
  if (!(socket instanceof tls.TLSSocket)) return
  const session = socket.getSession()
  if (!session) return
  sessions.delete(key)
  sessions.set(key, session)
  while (sessions.size > MAX_TLS_SESSIONS) sessions.delete(sessions.keys().next().value!)
}

/** Forgets every server's session (a test starting from a cold process). */
export function clearTlsSessions(): void {
  sessions.clear()
}
