// One read ahead: the initial sync fetches the next UID batch from the IMAP server while the
// current one is parsed and stored, so the server's work and the round trip overlap ours instead
// of adding to it. Never more than one read is in flight, so memory stays bounded.

/**
 * Yields `read(item)` for each item in order; the next item's read is started before the current
 * result is yielded, so it runs while the caller works on the current one. A read's failure is
 * thrown when its turn comes, never earlier as an unhandled rejection. However the caller stops
 * (done, break, an error), no read of this generator is still running when it has stopped.
 */
export async function* readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>): AsyncGenerator<R> {
  let next: Promise<R> | undefined
  const start = (item: T) => {
    const reading = read(item)
    reading.catch(() => {}) // thrown when awaited below
    return reading
  }
  try {
    if (items.length) next = start(items[0])
    for (let i = 0; i < items.length; i++) {
      const current = await next!
      next = i + 1 < items.length ? start(items[i + 1]) : undefined
      yield current
    }
  } finally {
    await next?.catch(() => {})
  }
}
