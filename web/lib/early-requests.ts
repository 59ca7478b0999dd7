// Reads started before the page could ask for them: when the app starts on a page whose data it
// knows (the inbox), its GETs leave at once, beside the session check and the page's code, instead
// of one after the other. The page's own first read of the same URL takes the answer (apiRequest);
// an answer nobody took within a few seconds is dropped, so a later read never gets a stale one.
const KEEP_MS = 5_000

const early = new Map<string, { at: number; response: Promise<Response> }>()

/** Sends a GET of `url` now, with the session cookie, for the page's first read of it. */
export function requestEarly(url: string): void {
  if (early.has(url)) return
  const response = fetch(url, { credentials: 'include' })
  // nobody may take it (signed out: the page never reads it); its failure is then no one's
  response.catch(() => {})
  early.set(url, { at: performance.now(), response })
  setTimeout(() => early.get(url)?.response === response && early.delete(url), KEEP_MS)
}

/** The early answer for `url`, once, while it is fresh. */
export function takeEarly(url: string): Promise<Response> | undefined {
  const entry = early.get(url)
  early.delete(url)
  return entry && performance.now() - entry.at < KEEP_MS ? entry.response : undefined
}
