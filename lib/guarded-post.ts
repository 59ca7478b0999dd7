// One HTTP(S) POST to a user-chosen URL under the SSRF guard: resolve and check first, then
// connect to that very address (a `lookup` that returns it), never follow a redirect, give up
// after a total timeout, and read at most a few KiB of the answer.
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { resolvePublicAddress, type Lookup } from './ssrf-guard.ts'

export interface GuardedPostOptions {
  body: string
  headers: Record<string, string>
  timeoutMs: number
  allowPrivate: boolean
  lookup?: Lookup
}

export class InvalidUrlError extends Error {
  override name = 'InvalidUrlError'
}

export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError'
}

/** Resolves with the response status (redirects are answers, not followed). */
export async function guardedPost(rawUrl: string, options: GuardedPostOptions): Promise<{ status: number }> {
  let url: URL
  try {
    url = new URL(rawUrl) // normalises 2130706433, 0x7f.1, 017700000001 to dotted IPv4
  } catch {
    throw new InvalidUrlError('not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidUrlError('not an http(s) URL')
  if (url.username || url.password) throw new InvalidUrlError('credentials in URL')
  const signal = AbortSignal.timeout(options.timeoutMs)
  const target = await resolvePublicAddress(url.hostname, { allowPrivate: options.allowPrivate, lookup: options.lookup })
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target])
    else callback(null, target.address, target.family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body)), 'user-agent': 'Veilmail-Webhooks/1', ...options.headers },
      lookup: pinned,
      signal,
      agent: false,
    }, (res) => {
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read > 64 * 1024) res.destroy()
      })
      res.on('close', () => resolve({ status: res.statusCode ?? 0 }))
      res.on('error', () => resolve({ status: res.statusCode ?? 0 }))
    })
    req.on('error', (error) => reject(signal.aborted ? new RequestTimeoutError('timed out') : error))
    req.end(options.body)
  })
}
