// Stand-ins for the outside world of the mail tests: a DNS answering from a table (offline), an
// smtp-server playing the outbound relay, and an HTTP server receiving webhooks. Each records
// what it got and lets a test wait for it (events, not sleeps).
import { EventEmitter, once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import type { DnsResolver } from '../../lib/dns-resolver.ts'

/** DNS from a table: `records['name TYPE']` (TXT as string[][]); anything else does not exist. */
export function fakeResolver(records: Record<string, unknown[]> = {}): DnsResolver & { records: Record<string, unknown[]> } {
  const resolver = async (name: string, type: string) => {
    const answer = resolver.records[`${name.toLowerCase()} ${type}`]
    if (answer) return answer as string[][]
    throw Object.assign(new Error(`${name} ${type} not found`), { code: 'ENOTFOUND' })
  }
  resolver.records = records
  return resolver
}

/** Waits until `get()` returns something truthy, re-checking whenever `emitter` emits `event`. */
export async function waitFor<T>(emitter: EventEmitter, event: string, get: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs)
  for (;;) {
    const value = get()
    if (value) return value
    await once(emitter, event, { signal })
  }
}

export interface RelayedMessage {
  from: string
  to: string[]
  raw: Buffer
}

export interface Relay extends EventEmitter {
  port: number
  url: string
  messages: RelayedMessage[]
  /** reply code for RCPT TO (e.g. 550), or undefined to accept */
  rejectRcpt?: number
  /** reply codes for RCPT TO of given (lower-case) recipients only, e.g. a target whose mailbox is gone */
  refuse: Map<string, number>
  /** every RCPT TO address asked, taken or refused, in order */
  rcpts: string[]
  /** DATA is answered only once this resolves (to let a test kill a worker mid-send) */
  holdData?: Promise<void>
  close(): Promise<void>
}

export async function startRelay(port = 0): Promise<Relay> {
  const relay = new EventEmitter() as Relay
  relay.messages = []
  relay.refuse = new Map()
  relay.rcpts = []
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false, disableReverseLookup: true, closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      relay.rcpts.push(address.address)
      if (relay.rejectRcpt) return callback(Object.assign(new Error('5.1.1 rejected by test relay'), { responseCode: relay.rejectRcpt }))
      const refused = relay.refuse.get(address.address.toLowerCase())
      if (refused) return callback(Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: refused }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        relay.emit('data-started')
        if (relay.holdData) await relay.holdData
        relay.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        })
        callback()
        relay.emit('message')
      })
    },
  })
  // a client that dies mid-conversation (tests kill delivery processes) is not the relay's failure
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  relay.port = (server.server.address() as AddressInfo).port
  relay.url = `smtp://127.0.0.1:${relay.port}`
  relay.close = () => new Promise((resolve) => server.close(() => resolve()))
  return relay
}

export interface WebhookRequest {
  headers: http.IncomingHttpHeaders
  body: string
}

export interface WebhookReceiver extends EventEmitter {
  url: string
  requests: WebhookRequest[]
  /** status for each next request, then 200 */
  statuses: number[]
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = new EventEmitter() as WebhookReceiver
  receiver.requests = []
  receiver.statuses = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(receiver.statuses.shift() ?? 200).end()
      receiver.emit('request')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  receiver.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  return receiver
}
