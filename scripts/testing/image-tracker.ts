// A sender's tracking server for the tests of mail shown in the browser: it answers every request
// with a 1×1 PNG and records the path, so a test proves what a message could (not) make the page fetch.
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
  close(): void
}

export async function startImageTracker(): Promise<ImageTracker> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => server.close() }
}
