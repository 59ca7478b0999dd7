// The hostile IMAP server proves itself against the client the sync uses (imapflow, through
// connectImap) and against a bare TLS socket where the bytes on the wire are the point: it
// serves a mailbox that syncs, and each hostile behaviour does what it says.
import { once } from 'node:events'
import net from 'node:net'
import tls from 'node:tls'
import { ImapFlow } from 'imapflow'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeImap, connectImap, ImapConnectError } from '../../lib/imap-connect.ts'
import { dovecotAvailable, startDovecot } from './dovecot.ts'
import { startHostileImap, type HostileImap, type HostileImapOptions } from './hostile-imap.ts'
import { addImapAccount, syncJobFinished } from './mailbox-accounts.ts'
import { startSyncEnv } from './sync-env.ts'
import { endlessList, hostileMail, hugeSearch, lyingLiteral, manyFolders, silentAfter } from './hostile-imap-behaviours.ts'
import { makeTestCertificates, type TestCertificates } from './test-certificates.ts'

let certificates: TestCertificates
const servers: HostileImap[] = []
const clients: ImapFlow[] = []

beforeAll(async () => {
  certificates = await makeTestCertificates()
})

afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(options: HostileImapOptions = {}): Promise<HostileImap> {
  const imap = await startHostileImap({ tls: certificates, ...options })
  servers.push(imap)
  return imap
}

async function connect(imap: HostileImap, timeoutMs = 5000): Promise<ImapFlow> {
  const client = await connectImap(imap.account, { allowPrivate: true, timeoutMs, ca: imap.ca })
  clients.push(client)
  return client
}

/** A bare client: what the server sends, byte for byte (kept up to 1 MB, counted beyond, its last 1 KB kept). */
class RawClient {
  text = ''
  tail = ''
  bytes = 0
  ended = false
  readonly socket: net.Socket
  #waiters: Array<() => void> = []
  constructor(socket: net.Socket) {
    this.socket = socket
    socket.on('data', (chunk: Buffer) => {
      this.bytes += chunk.length
      const latin1 = chunk.toString('latin1')
      if (this.text.length < 1024 * 1024) this.text += latin1
      this.tail = (this.tail + latin1.slice(-1024)).slice(-1024)
      this.#wake()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      this.ended = true
      this.#wake()
    })
  }

  static async tls(imap: HostileImap): Promise<RawClient> {
    const socket = tls.connect({ host: imap.host, port: imap.port, ca: imap.ca })
    await once(socket, 'secureConnect')
    return new RawClient(socket)
  }

  /** Resolves once the condition holds on what was received (or the connection ended). */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (condition() || this.ended ? resolve() : this.#waiters.push(check))
      check()
    })
  }

  /** Sends a command and returns everything received up to its tagged answer. */
  async command(tag: string, line: string | Buffer): Promise<string> {
    const from = this.text.length
    this.socket.write(Buffer.concat([Buffer.from(`${tag} `), Buffer.from(line), Buffer.from('\r\n')]))
    const done = new RegExp(`(^|\\r\\n)${tag} (OK|NO|BAD)[^\\r\\n]*\\r\\n$`)
    await this.until(() => done.test(this.text.slice(from)))
    return this.text.slice(from)
  }

  /** Waits for the greeting and logs in as the server's first user. */
  async login(imap: HostileImap): Promise<void> {
    await this.until(() => this.text.includes('\r\n'))
    expect(await this.command('a0', `LOGIN "${imap.account.email}" "${imap.account.password}"`)).toBe('a0 OK Logged in\r\n')
  }

  #wake() {
    for (const waiter of this.#waiters.splice(0)) waiter()
  }
}

const message = (uid: number, subject: string, flags?: string[]) => ({
  uid, flags, internalDate: new Date(Date.UTC(2026, 1, uid)),
  raw: `From: Sender <sender@example.test>\r\nSubject: ${subject}\r\nMessage-ID: <${uid}@example.test>\r\n\r\nBody of ${subject}.\r\n`,
})

describe('a well-behaved mailbox', () => {
  it('lists folders with their counts, selects INBOX, searches and fetches messages with their source', async () => {
    const imap = await serve({ folders: { INBOX: [message(3, 'first', ['\\Seen']), message(7, 'second')], Archive: [message(1, 'old')], 'Ünïcode & co': [] } })
    const client = await connect(imap)
    const folders = await client.list({ statusQuery: { messages: true, unseen: true } })
    expect(folders.map((f) => [f.path, f.status?.messages, f.status?.unseen])).toEqual([['INBOX', 2, 1], ['Archive', 1, 1], ['Ünïcode & co', 0, 0]])
    const lock = await client.getMailboxLock('INBOX', { readOnly: true })
    try {
      expect(client.mailbox && [client.mailbox.exists, client.mailbox.uidValidity, client.mailbox.uidNext]).toEqual([2, 1n, 8])
      expect(await client.search({ uid: '4:*' }, { uid: true })).toEqual([7])
      const fetched = []
      for await (const m of client.fetch('1:*', { uid: true, flags: true, size: true, internalDate: true, source: true }, { uid: true })) {
        fetched.push([m.uid, [...(m.flags ?? [])], m.size === m.source?.length, (m.internalDate as Date).toISOString(), m.source?.toString().match(/Subject: (\w+)/)?.[1]])
      }
      expect(fetched).toEqual([[3, ['\\Seen'], true, '2026-02-03T00:00:00.000Z', 'first'], [7, [], true, '2026-02-07T00:00:00.000Z', 'second']])
      // download() reads in partial FETCHes (RFC 3501 §6.4.5 <origin.length>)
      const download = await client.download('7', undefined, { uid: true, chunkSize: 16 })
      const chunks: Buffer[] = []
      for await (const chunk of download.content!) chunks.push(chunk as Buffer)
      expect(Buffer.concat(chunks).toString()).toBe(message(7, 'second').raw)
      expect(imap.commandsSeen()).toContain('UID FETCH 7 (BODY.PEEK[]<16.16> UID)')
    } finally {
      lock.release()
    }
    await closeImap(client)
    await expect.poll(() => imap.openConnections()).toBe(0)
  })

  it('offers CONDSTORE, QRESYNC and LIST-STATUS when asked: counts in the LIST, HIGHESTMODSEQ, CHANGEDSINCE', async () => {
    const imap = await serve({ capabilities: ['CONDSTORE', 'QRESYNC', 'LIST-STATUS'], uidValidity: 42, folders: { INBOX: [{ ...message(1, 'one'), modseq: 5 }, { ...message(2, 'two'), modseq: 9 }] } })
    const client = await connect(imap)
    expect([...client.enabled].sort()).toEqual(['CONDSTORE', 'QRESYNC'])
    expect((await client.list({ statusQuery: { messages: true, unseen: true } })).map((f) => f.status?.messages)).toEqual([2])
    expect(imap.commandsSeen()).toContain('LIST "" "*" RETURN (STATUS (MESSAGES UNSEEN))')
    expect(imap.commandsSeen().some((c) => c.startsWith('STATUS'))).toBe(false)
    const lock = await client.getMailboxLock('INBOX', { readOnly: true })
    try {
      expect(client.mailbox && [client.mailbox.uidValidity, client.mailbox.highestModseq]).toEqual([42n, 9n])
      const changed = []
      for await (const m of client.fetch('1:*', { uid: true, flags: true }, { uid: true, changedSince: 5n })) changed.push([m.uid, m.modseq])
      expect(changed).toEqual([[2, 9n]])
    } finally {
      lock.release()
    }
  })

  it('offers STARTTLS on a plain port and refuses LOGIN before it; connectImap upgrades', async () => {
    const imap = await serve({ security: 'starttls' })
    const plain = new RawClient(net.connect(imap.port, imap.host))
    await plain.until(() => plain.text.includes('\r\n'))
    expect(plain.text).toBe('* OK hostile-imap ready\r\n')
    expect(await plain.command('a1', 'CAPABILITY')).toMatch(/^\* CAPABILITY IMAP4rev1 STARTTLS LOGINDISABLED /)
    expect(await plain.command('a2', `LOGIN ${imap.account.email} ${imap.account.password}`)).toBe('a2 NO [PRIVACYREQUIRED] STARTTLS first\r\n')
    plain.socket.destroy()
    const client = await connect(imap)
    expect(client.secureConnection).toBe(true)
    expect(imap.commandsSeen().slice(2, 6)).toEqual(['CAPABILITY', 'STARTTLS', 'CAPABILITY', expect.stringMatching(/^ID /)])
  })

  it('answers IDLE and announces a delivered message with EXISTS', async () => {
    const imap = await serve({ folders: { INBOX: [message(1, 'one')] } })
    const client = await connect(imap)
    await client.mailboxOpen('INBOX', { readOnly: true })
    const exists = once(client, 'exists')
    const idling = client.idle()
    await expect.poll(() => imap.commandsSeen()).toContain('IDLE')
    imap.deliver('INBOX', message(2, 'two'))
    const [event] = await exists
    expect(event).toMatchObject({ path: 'INBOX', count: 2, prevCount: 1 })
    await client.noop() // breaks IDLE with DONE
    await idling
    expect(imap.commandsSeen().slice(-1)).toEqual(['NOOP'])
  })

  it('serves Dovecot\'s certificate: the sync worker, trusting Dovecot\'s CA, syncs from it', { skip: !dovecotAvailable() }, async () => {
    const env = await startSyncEnv()
    try {
      const imap = await serve({ tls: env.dovecot.certificates, folders: { INBOX: [message(1, 'first', ['\\Seen']), message(2, 'second')], Archive: [] } })
      expect(imap.ca).toBe(env.dovecot.ca)
      const { providerId, jobId } = await addImapAccount(env.user, imap, imap.account.email, imap.account.password)
      expect(await syncJobFinished(env.user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 2 } })
      const emails = (await env.user.json(env.user.get('/api/emails?providerId=all&limit=100&offset=0'))).body.emails as Array<{ subject: string; isRead: boolean }>
      expect(emails.map((e) => [e.subject, e.isRead]).sort()).toEqual([['first', true], ['second', false]])
    } finally {
      await env.close()
    }
  })
})

describe('hostile behaviours', () => {
  it('sends folder names with NUL or CR as literals and flags as given; mail keeps its bytes', async () => {
    const imap = await serve({
      folders: {
        INBOX: [message(1, 'one', ['\\Seen', 'Key\0word']), { uid: 2, raw: hostileMail({ subject: 'Sub\0ject', fromName: 'Na\0me', attachmentName: 'fi\0le.txt' }) }],
        'Bad\0Name': [], 'CR\rName': [], 'Ünïcode': [],
      },
    })
    const raw = await RawClient.tls(imap)
    await raw.login(imap)
    const listing = await raw.command('a1', 'LIST "" "*"')
    expect(listing).toContain('* LIST (\\HasNoChildren) "/" {8}\r\nBad\0Name\r\n')
    expect(listing).toContain('* LIST (\\HasNoChildren) "/" {7}\r\nCR\rName\r\n')
    expect(listing).toContain('* LIST (\\HasNoChildren) "/" "&ANw-n&AO8-code"\r\n')
    // a name asked for in modified UTF-7 (as imapflow encodes a NUL) or as a literal
    expect(await raw.command('a2', 'EXAMINE "Bad&AAA-Name"')).toMatch(/\* 0 EXISTS\r\n[^]*a2 OK \[READ-ONLY\]/)
    expect(await raw.command('a3', 'EXAMINE {7+}\r\nCR\rName')).toMatch(/a3 OK \[READ-ONLY\]/)
    await raw.command('a4', 'EXAMINE INBOX')
    expect(await raw.command('a5', 'UID FETCH 1 (UID FLAGS)')).toBe('* 1 FETCH (UID 1 FLAGS (\\Seen Key\0word))\r\na5 OK UID FETCH completed\r\n')

    const client = await connect(imap)
    expect((await client.list()).map((f) => f.path)).toEqual(expect.arrayContaining(['Bad\0Name', 'CR\rName', 'Ünïcode']))
    await client.mailboxOpen('INBOX', { readOnly: true })
    const source = (await client.fetchOne('2', { source: true }, { uid: true }))
    const text = source && source.source?.toString()
    expect(text).toContain('From: Na\0me <sender@hostile.test>\r\nTo: user@hostile.test\r\nSubject: Sub\0ject\r\n')
    expect(text).toContain('filename="fi\0le.txt"')
  })

  it('streams a lying literal (RFC822.SIZE 1000, 50 MB sent) in chunks, held back while the client does not read', async () => {
    const bytes = 50 * 1024 * 1024
    const imap = await serve({ folders: { INBOX: [lyingLiteral(1, bytes)] } })
    const raw = await RawClient.tls(imap)
    await raw.login(imap)
    await raw.command('a1', 'EXAMINE INBOX')
    const before = raw.bytes
    raw.socket.pause()
    raw.socket.write('a2 UID FETCH 1 (UID RFC822.SIZE BODY.PEEK[])\r\n')
    // the client reads nothing: the server waits for the socket to drain
    await expect.poll(() => imap.waitingForDrain()).toBe(1)
    // what the kernel's socket buffers took (about 4 MB on Linux's defaults), far from all of it
    expect(imap.bytesSent()).toBeLessThan(bytes / 2)
    raw.socket.resume()
    await raw.until(() => raw.tail.endsWith('a2 OK UID FETCH completed\r\n'))
    const prefix = `* 1 FETCH (UID 1 RFC822.SIZE 1000 BODY[] {${bytes}}\r\n`
    expect(raw.text.slice(raw.text.indexOf('* 1 FETCH'))).toMatch(new RegExp(`^${prefix.replace(/[[\]{}()*]/g, '\\$&')}From: Generator`))
    expect(raw.bytes - before).toBe(prefix.length + bytes + ')\r\n'.length + 'a2 OK UID FETCH completed\r\n'.length)
    expect(raw.tail).toMatch(/\r\nx+\)\r\na2 OK UID FETCH completed\r\n$/)
  })

  it('a literal over imapflow\'s maxLiteralSize fails its connection (LiteralTooLarge) and ends the stream', async () => {
    const imap = await serve({ folders: { INBOX: [lyingLiteral(1, 20 * 1024 * 1024)] } })
    const client = new ImapFlow({
      host: imap.host, port: imap.port, secure: true, auth: { user: imap.account.email, pass: imap.account.password },
      tls: { ca: imap.ca }, logger: false, maxLiteralSize: 10 * 1024 * 1024,
    })
    clients.push(client)
    const errors: Array<{ code?: string }> = []
    client.on('error', (error: { code?: string }) => errors.push(error))
    await client.connect()
    await client.mailboxOpen('INBOX', { readOnly: true })
    const fetched = await client.fetchAll('1', { uid: true, size: true, source: true }, { uid: true }).then(() => 'fetched', (error: { code?: string }) => error.code)
    expect([fetched, errors.map((e) => e.code)]).toEqual(['NoConnection', ['LiteralTooLarge']])
    await expect.poll(() => [imap.openConnections(), imap.commandsRunning()]).toEqual([0, 0])
    expect(imap.bytesSent()).toBeLessThan(20 * 1024 * 1024)
  })

  it('answers UID SEARCH with a million UIDs on one line', async () => {
    const imap = await serve({ folders: { INBOX: [message(1, 'one')] }, onCommand: hugeSearch(1_000_000) })
    const client = await connect(imap)
    await client.mailboxOpen('INBOX', { readOnly: true })
    const uids = (await client.search({ uid: '1:*' }, { uid: true })) || []
    expect([uids.length, uids[0], uids[uids.length - 1]]).toEqual([1_000_000, 1, 1_000_000])
    expect(imap.bytesSent()).toBeGreaterThan(6_888_896) // " 1" … " 1000000"
  })

  it('sends * LIST lines without end until the client goes', async () => {
    const imap = await serve({ onCommand: endlessList() })
    const client = await connect(imap)
    const listing = client.list().then(() => 'listed', (error: { code?: string }) => error.code)
    await expect.poll(() => imap.bytesSent()).toBeGreaterThan(1024 * 1024)
    expect(imap.commandsRunning()).toBe(1)
    client.close()
    expect(await listing).toBe('NoConnection')
    await expect.poll(() => [imap.openConnections(), imap.commandsRunning()]).toEqual([0, 0])
  })

  it('never greets on a STARTTLS port: the connection is accepted and nothing is said', async () => {
    const imap = await serve({ security: 'starttls', greet: false })
    const raw = new RawClient(net.connect(imap.port, imap.host))
    await expect.poll(() => imap.openConnections()).toBe(1)
    await imap.close() // anything sent before the socket is destroyed would arrive before its end
    await raw.until(() => raw.ended)
    expect([raw.bytes, imap.bytesSent()]).toEqual([0, 0])
  })

  it('never greets after the TLS handshake on implicit TLS; connectImap gives up with a timeout', async () => {
    const imap = await serve({ greet: false })
    const error = await connectImap(imap.account, { allowPrivate: true, timeoutMs: 300, ca: imap.ca }).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ImapConnectError)
    expect((error as ImapConnectError).kind).toBe('timeout')
    const raw = await RawClient.tls(imap)
    await imap.close()
    await raw.until(() => raw.ended)
    expect([raw.bytes, imap.bytesSent()]).toEqual([0, 0])
  })

  it('lists 5,001 folders with their counts', async () => {
    const imap = await serve({ folders: manyFolders(5000, [message(1, 'one')]) })
    const client = await connect(imap)
    const folders = await client.list({ statusQuery: { messages: true } })
    expect(folders.length).toBe(5001)
    expect([folders[0].path, folders[0].status?.messages, folders[5000].path]).toEqual(['INBOX', 1, 'Folder 05000'])
    expect(imap.commandsSeen().filter((c) => c.startsWith('STATUS')).length).toBe(5001)
  })

  it('falls silent at a command: no answer to it or after it, the connection kept open', async () => {
    let sentBefore = -1
    const imap: HostileImap = await serve({
      onCommand: [(command) => {
        if (command.name === 'EXAMINE') sentBefore = imap.bytesSent()
        return false
      }, silentAfter('EXAMINE')],
    })
    const client = await connect(imap)
    const opening = client.mailboxOpen('INBOX', { readOnly: true }).then(() => 'opened', (error: { code?: string }) => error.code)
    await expect.poll(() => imap.commandsSeen()).toContain('EXAMINE INBOX')
    expect([imap.bytesSent(), imap.openConnections(), imap.commandsSeen().at(-1)]).toEqual([sentBefore, 1, 'EXAMINE INBOX'])
    client.close()
    expect(await opening).toBe('NoConnection')
  })

  it('falls silent after answering a command', async () => {
    const imap = await serve({ onCommand: silentAfter('LOGIN', { answered: true }) })
    const raw = await RawClient.tls(imap)
    await raw.login(imap)
    const sent = imap.bytesSent()
    raw.socket.write('a1 NOOP\r\n')
    await expect.poll(() => imap.commandsSeen()).toContain('NOOP')
    expect(imap.bytesSent()).toBe(sent)
  })

  it('answers what it cannot parse with BAD, hangs up on a line without end, and serves the next client', async () => {
    const imap = await serve()
    const raw = await RawClient.tls(imap)
    await raw.until(() => raw.text.includes('\r\n'))
    expect(await raw.command('a1', Buffer.from('FOO\0BAR ((( "unterminated'))).toBe('a1 BAD FOO\0BAR is not valid before LOGIN\r\n')
    expect(await raw.command('a2', 'SELECT INBOX')).toBe('a2 BAD SELECT is not valid before LOGIN\r\n')
    // a synchronizing literal gets its continuation, a LITERAL+ one none (RFC 7888)
    expect(await raw.command('a3', `LOGIN {${imap.account.email.length}}\r\n${imap.account.email} {${imap.account.password.length}+}\r\n${imap.account.password}`))
      .toBe('+ Ready for literal data\r\na3 OK Logged in\r\n')
    await raw.command('a4', 'EXAMINE INBOX')
    expect(await raw.command('a5', 'UID FETCH 1:x (UID)')).toBe('a5 BAD Invalid sequence set\r\n')
    expect(await raw.command('a6', 'UID FETCH 1:* (ENVELOPE)')).toBe('a6 BAD Unsupported FETCH item ENVELOPE\r\n')
    expect(await raw.command('a7', 'UID SEARCH ))) OR')).toBe('a7 BAD Unsupported search key OR\r\n')
    expect(await raw.command('a8', 'APPEND INBOX {3+}\r\nabc')).toBe('a8 BAD APPEND is not supported by the hostile server\r\n')
    raw.socket.write('x'.repeat(2 * 1024 * 1024))
    await raw.until(() => raw.ended)
    expect(raw.tail).toMatch(/\* BYE line too long\r\n$/)
    await closeImap(await connect(imap))
  })
})
