// A sender's tracking server for the tests of mail shown in the browser: it answers every request
// with a 1×1 PNG and records the path (and the Referer), so a test proves what a message could (not)
// make the page fetch, and that what it fetched did not say where the mail was read.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A 1×1 PNG, also usable as an inline (cid:) image of a test message. */
export const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')

export interface ImageTracker {
  /** http://127.0.0.1:port, to put in a message's remote images */
  url: string
  /** the paths requested so far, in order */
  hits: string[]
  /** every request so far with its Referer header (undefined: none was sent) */
  requests: { path: string; referer: string | undefined }[]
  close(): void
}

export async function startImageTracker(): Promise<ImageTracker> {
  const hits: string[] = []
  const requests: ImageTracker['requests'] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    requests.push({ path: req.url ?? '', referer: req.headers.referer })
    res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, requests, close: () => server.close() }
}
