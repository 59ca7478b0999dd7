// Custom IMAP servers (issue #13) against a private Dovecot: STARTTLS on a plain port (RFC 3501
// §6.2.1) really upgrades before the password goes out, a server that offers no STARTTLS gets no
// password at all, and a host name is what the certificate is checked for (SNI and name check)
// while the socket goes to the address that was resolved.
import { lookup as dnsLookup } from 'node:dns/promises'
import { readFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import tls from 'node:tls'
import { ImapFlow } from 'imapflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Lookup } from '../../lib/ssrf-guard.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { closeImap, connectImap, ImapConnectError, tlsSocketOf } from '../../lib/imap-connect.ts'
import { clearTlsSessions } from '../../lib/tls-reuse.ts'
import type { PasswordCredentials } from '../../lib/mailbox-credentials.ts'

const run = dovecotAvailable()

const CERTIFICATE_ERROR = 'The secure connection to the mail server failed: its certificate could not be verified.'

// the system resolver (/etc/hosts for localhost), IPv4 only: the test Dovecot listens on 127.0.0.1
const ipv4Lookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, family: 4 })).map((r) => ({ address: r.address, family: 4 as const }))

/** A name the certificate does not carry, resolving (for this connection only) to the test server. */
const foreignNameLookup: Lookup = async (hostname) => {
  if (hostname !== 'mail.example.test') throw Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: 'ENOTFOUND' })
  return [{ address: '127.0.0.1', family: 4 }]
}

/** Starts the server on a free loopback port and returns the port. */
async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as net.AddressInfo).port
}

/** Dovecot's log line of the user's login, once its log process has written it. */
async function loginLine(dovecot: Dovecot, user: string): Promise<string> {
  for (let tries = 0; tries < 200; tries++) {
    const line = readFileSync(dovecot.logFile, 'utf8').split('\n').find((l) => l.includes(`Login: user=<${user}>`))
    if (line) return line
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`no login of ${user} in Dovecot's log`)
}

async function connectionFailure(promise: Promise<unknown>): Promise<ImapConnectError> {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(ImapConnectError)
  return error as ImapConnectError
}

describe.skipIf(!run)('STARTTLS on a plain IMAP port', () => {
  let dovecot: Dovecot
  let creds: PasswordCredentials
  beforeAll(async () => {
    dovecot = await startDovecot({ starttls: true, sharedLogin: true })
    const password = dovecot.addUser('plain@example.test')
    dovecot.writeMessages('plain@example.test', [sampleMail(0), sampleMail(1)].map((m) => ({ raw: m.raw })))
    creds = { email: 'plain@example.test', password, host: '127.0.0.1', port: dovecot.plainPort!, secure: false }
  })
  afterAll(async () => {
    await dovecot?.stop()
  })

  it('upgrades with STARTTLS before logging in, then lists and opens INBOX', async () => {
    const client = await connectImap(creds, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca })
    try {
      expect(client.secureConnection).toBe(true)
      expect(client.tls).toMatchObject({ version: expect.stringMatching(/^TLSv1\.[23]$/) })
      const folders = await client.list()
      expect(folders.map((f) => f.path)).toContain('INBOX')
      const inbox = await client.mailboxOpen('INBOX', { readOnly: true })
      expect(inbox.exists).toBe(2)
    } finally {
      await closeImap(client)
    }
    // Dovecot's own word: the login came over TLS (a plaintext one is logged `secured` on loopback)
    expect(await loginLine(dovecot, creds.email)).toMatch(/, TLS, /)
  })

  it('the server log tells a plaintext login from a STARTTLS one (the check above can fail)', async () => {
    // Dovecot counts a loopback connection as secure, so `ssl = required` does not refuse a
    // plaintext login here: the log line is what shows which of the two happened
    const password = dovecot.addUser('cleartext@example.test')
    const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.plainPort!, secure: false, doSTARTTLS: false, auth: { user: 'cleartext@example.test', pass: password }, logger: false })
    client.on('error', () => {})
    await client.connect()
    expect(client.secureConnection).toBe(false)
    await client.logout()
    const line = await loginLine(dovecot, 'cleartext@example.test')
    expect(line).toMatch(/, secured, /)
    expect(line).not.toMatch(/, TLS, /)
  })

  it('a second login after STARTTLS resumes the first one\'s TLS session', async () => {
    clearTlsSessions()
    const resumed: boolean[] = []
    for (let i = 0; i < 2; i++) {
      const client = await connectImap(creds, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca })
      resumed.push(tlsSocketOf(client)!.isSessionReused())
      expect((await client.mailboxOpen('INBOX', { readOnly: true })).exists).toBe(2)
      await closeImap(client)
    }
    expect(resumed).toEqual([false, true])
  })

  it('checks the certificate after STARTTLS too: a name it does not carry is the error the user sees', async () => {
    const error = await connectionFailure(connectImap({ ...creds, host: 'mail.example.test' }, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca, lookup: foreignNameLookup }))
    expect(error.kind).toBe('tls')
    expect(error.message).toBe(CERTIFICATE_ERROR)
  })
})

describe('a plain IMAP server that offers no STARTTLS', () => {
  it('gets no password: the login stops with an error the user can act on', async () => {
    // a server that would take a plaintext LOGIN (LOGINDISABLED is not announced), recording every byte it gets
    let received = ''
    const sockets = new Set<net.Socket>()
    const server = net.createServer((socket) => {
      sockets.add(socket)
      socket.write('* OK [CAPABILITY IMAP4rev1 ID AUTH=PLAIN] plain IMAP only\r\n')
      let buffered = ''
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1')
        buffered += chunk.toString('latin1')
        for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
          const [tag, command = ''] = buffered.slice(0, end).split(' ')
          buffered = buffered.slice(end + 2)
          if (/^capability$/i.test(command)) socket.write(`* CAPABILITY IMAP4rev1 ID AUTH=PLAIN\r\n${tag} OK done\r\n`)
          else if (/^logout$/i.test(command)) socket.end(`* BYE\r\n${tag} OK done\r\n`)
          else socket.write(`${tag} OK done\r\n`)
        }
      })
      socket.on('error', () => {})
      socket.on('close', () => sockets.delete(socket))
    })
    const port = await listen(server)
    const password = 'never-in-the-clear-4711'
    try {
      const error = await connectionFailure(connectImap({ email: 'someone@example.test', password, host: '127.0.0.1', port, secure: false }, { allowPrivate: true, timeoutMs: 10_000 }))
      expect(error.kind).toBe('tls')
      expect(error.message).toBe(`The mail server does not offer a secure connection (STARTTLS) on port ${port}. Use SSL/TLS (port 993) or check the port and security setting.`)
      expect(received).not.toMatch(/LOGIN|AUTHENTICATE/i)
      expect(received).not.toContain(password)
      expect(received).not.toContain(Buffer.from(`\0someone@example.test\0${password}`).toString('base64'))
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe.skipIf(!run)('the certificate is checked for the host name the user gave', () => {
  let dovecot: Dovecot
  let password: string
  beforeAll(async () => {
    dovecot = await startDovecot({ sharedLogin: true })
    password = dovecot.addUser('named@example.test')
  })
  afterAll(async () => {
    await dovecot?.stop()
  })

  it('logs in by the name localhost, which the certificate carries', async () => {
    const client = await connectImap({ email: 'named@example.test', password, host: 'localhost', port: dovecot.port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca, lookup: ipv4Lookup })
    try {
      expect(client.secureConnection).toBe(true)
      expect((await client.list()).map((f) => f.path)).toContain('INBOX')
    } finally {
      await closeImap(client)
    }
  })

  it('resumes the TLS session of the last login to the same server, name and CA, and no other', async () => {
    clearTlsSessions()
    const login = async (host: string, ca?: string) => {
      const client = await connectImap({ email: 'named@example.test', password, host, port: dovecot.port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, ca, lookup: ipv4Lookup })
      const reused = tlsSocketOf(client)!.isSessionReused()
      expect((await client.list()).map((f) => f.path)).toContain('INBOX')
      await closeImap(client)
      return reused
    }
    expect([await login('localhost', dovecot.ca), await login('localhost', dovecot.ca)]).toEqual([false, true])
    // the same server by its address: a name of its own, a handshake of its own
    expect([await login('127.0.0.1', dovecot.ca), await login('127.0.0.1', dovecot.ca)]).toEqual([false, true])
    // a session from a login whose CA trusted the certificate is never offered where that CA is not
    // trusted: the certificate is checked again and refused
    const untrusted = await connectionFailure(connectImap({ email: 'named@example.test', password, host: 'localhost', port: dovecot.port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, lookup: ipv4Lookup }))
    expect(untrusted.message).toBe(CERTIFICATE_ERROR)
    // nor for a name the certificate does not carry, resolving to the same address
    const foreign = await connectionFailure(connectImap({ email: 'named@example.test', password, host: 'mail.example.test', port: dovecot.port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca, lookup: foreignNameLookup }))
    expect(foreign.message).toBe(CERTIFICATE_ERROR)
  })

  it('refuses a name the certificate does not carry, though it resolves to the same server, with the certificate error the user sees', async () => {
    const error = await connectionFailure(connectImap({ email: 'named@example.test', password, host: 'mail.example.test', port: dovecot.port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca, lookup: foreignNameLookup }))
    expect(error.kind).toBe('tls')
    expect(error.permanent).toBe(true)
    expect(error.message).toBe(CERTIFICATE_ERROR)
  })

  it('refuses a certificate from a CA it does not trust', async () => {
    const error = await connectionFailure(connectImap({ email: 'named@example.test', password, host: 'localhost', port: dovecot.port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, lookup: ipv4Lookup }))
    expect(error.kind).toBe('tls')
    expect(error.message).toBe(CERTIFICATE_ERROR)
  })

  it('refuses a server that offers nothing above TLS 1.1 (the shared secure context keeps the floor)', async () => {
    let handshakes = 0
    const server = tls.createServer({ key: readFileSync(path.join(dovecot.dir, 'key.pem')), cert: readFileSync(path.join(dovecot.dir, 'cert.pem')), minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'ECDHE-RSA-AES128-SHA:@SECLEVEL=0' }, (socket) => {
      handshakes++
      socket.on('error', () => {})
      socket.end('* OK old server\r\n')
    })
    server.on('tlsClientError', () => {})
    const port = await listen(server)
    try {
      const error = await connectionFailure(connectImap({ email: 'named@example.test', password, host: 'localhost', port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca, lookup: ipv4Lookup }))
      expect(error.kind).toBe('tls')
      expect(handshakes).toBe(0)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('sends the name as SNI, and no SNI for an IP address', async () => {
    // a TLS server with the test certificate that only notes the SNI of each handshake
    const names: (string | false)[] = []
    const server = tls.createServer({ key: readFileSync(path.join(dovecot.dir, 'key.pem')), cert: readFileSync(path.join(dovecot.dir, 'cert.pem')) }, (socket) => {
      names.push((socket as tls.TLSSocket & { servername: string | false }).servername)
      socket.on('error', () => {})
      socket.end('* BYE noted\r\n')
    })
    const port = await listen(server)
    try {
      for (const host of ['localhost', '127.0.0.1']) {
        await connectionFailure(connectImap({ email: 'named@example.test', password, host, port, secure: true }, { allowPrivate: true, timeoutMs: 10_000, ca: dovecot.ca, lookup: ipv4Lookup }))
      }
      expect(names).toEqual(['localhost', false])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
