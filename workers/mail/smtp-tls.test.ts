// TLS on our SMTP servers as a client meets it: submission's STARTTLS (587) and implicit TLS (465)
// and the MX's STARTTLS offer Mozilla's "intermediate" profile (lib/tls.ts SERVER_TLS_PROFILE):
// TLS 1.2 with ECDHE and an AEAD cipher only, TLS 1.3 as OpenSSL has it. A client that offers only
// static-RSA key exchange (RFC 9325 §4.1), only CBC suites, or only TLS 1.1 gets no session.
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'
import { createSubmissionServers, type SubmissionServers } from '../submission/submission-server.ts'

let env: MailEnv
let servers: SubmissionServers
let ports: { starttls: number; tls: number }

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  servers = createSubmissionServers({ sql: env.db.sql, boss: env.boss, config: env.config })
  ports = await servers.listen({ starttls: 0, tls: 0 }, '127.0.0.1')
}, 60_000)
afterAll(async () => {
  await servers?.close()
  await env?.close()
})

type Negotiated = { protocol: string | null; name: string }

/** A TLS session on `endpoint` with a client limited by `options`: what was negotiated, or the failure. */
async function handshake(endpoint: 'submission-starttls' | 'submission-tls' | 'mx-starttls', options: tls.ConnectionOptions): Promise<Negotiated | { refused: string }> {
  if (endpoint === 'submission-tls') {
    const socket = tls.connect({ ...options, host: '127.0.0.1', port: ports.tls, rejectUnauthorized: false })
    try {
      return await new Promise((resolve, reject) => {
        socket.once('secureConnect', () => resolve({ protocol: socket.getProtocol(), name: socket.getCipher().name }))
        socket.once('error', reject)
      })
    } catch (error) {
      return { refused: (error as NodeJS.ErrnoException).code ?? String(error) }
    } finally {
      socket.destroy()
    }
  }
  const { client } = await RawSmtp.connect(endpoint === 'mx-starttls' ? env.mxPort : ports.starttls)
  try {
    expect(await client.command('EHLO client.example')).toContain('250-STARTTLS')
    await client.startTls(options)
    return client.tlsCipher()!
  } catch (error) {
    return { refused: (error as NodeJS.ErrnoException).code ?? String(error) }
  } finally {
    client.close()
  }
}

const TLS12 = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' } as const
const ENDPOINTS = ['submission-starttls', 'submission-tls', 'mx-starttls'] as const

describe('TLS profile of the SMTP servers', () => {
  it.each(ENDPOINTS)('%s refuses static-RSA, CBC-only and TLS 1.1 clients', async (endpoint) => {
    for (const ciphers of [
      'AES256-GCM-SHA384', 'AES128-GCM-SHA256', 'AES128-SHA', 'AES256-SHA256', 'AES128-CCM', 'ARIA256-GCM-SHA384', // static RSA key exchange
      'ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384', // ECDHE but CBC (with SHA-1 or SHA-384 MACs)
    ]) {
      expect({ ciphers, result: await handshake(endpoint, { ...TLS12, ciphers }) }).toEqual({ ciphers, result: { refused: expect.stringMatching(/^ERR_SSL_/) } })
    }
    // a client that still speaks only TLS 1.1 (with OpenSSL's level 0, so the client itself would)
    const old = await handshake(endpoint, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'ECDHE-RSA-AES128-SHA:@SECLEVEL=0' })
    expect(old).toEqual({ refused: expect.stringMatching(/^ERR_SSL_/) })
  })

  it.each(ENDPOINTS)('%s serves an intermediate TLS 1.2 client and TLS 1.3 as is', async (endpoint) => {
    for (const ciphers of ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305']) {
      expect(await handshake(endpoint, { ...TLS12, ciphers })).toEqual({ protocol: 'TLSv1.2', name: ciphers })
    }
    for (const suite of ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']) {
      expect(await handshake(endpoint, { minVersion: 'TLSv1.3', ciphers: suite })).toEqual({ protocol: 'TLSv1.3', name: suite })
    }
  })
})
