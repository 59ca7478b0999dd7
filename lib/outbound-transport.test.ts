import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOutboundTransport } from './outbound-transport.ts'

let relay: SMTPServer
let port: number
let connections = 0
let open = 0
let mostOpen = 0
let received = 0
beforeAll(async () => {
  relay = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false, disableReverseLookup: true, closeTimeout: 100,
    onConnect(_session, callback) {
      connections++
      mostOpen = Math.max(mostOpen, ++open)
      callback()
    },
    onClose() {
      open--
    },
    onData(stream, _session, callback) {
      stream.resume()
      stream.on('end', () => {
        received++
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', () => resolve()))
  port = (relay.server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise<void>((resolve) => relay?.close(() => resolve()))
})

describe('relay transport', () => {
  it('sends many messages over at most OUTBOUND_SMTP_CONNECTIONS kept-open connections', async () => {
    const transport = createOutboundTransport({ outboundSmtpUrl: `smtp://127.0.0.1:${port}`, dataDir: '/nonexistent', outboundSmtpConnections: 2 })
    try {
      await Promise.all(Array.from({ length: 30 }, (_, i) => transport.send({
        id: `m${i}`, from: 'sender@veilmail.test', to: 'someone@mailbox.example', raw: Buffer.from(`Subject: ${i}\r\n\r\nbody\r\n`),
      })))
    } finally {
      transport.close()
    }
    expect(received).toBe(30)
    expect(connections).toBeLessThanOrEqual(2)
    expect(mostOpen).toBeLessThanOrEqual(2)
  })
})
