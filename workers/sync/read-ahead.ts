// One read ahead: the initial sync fetches the next UID batch from the IMAP server while the
// current one is parsed and stored, so the server's work and the round trip overlap ours instead
// of adding to it. Never more than one read is in flight, so memory stays bounded.

/**
 * Yields `read(item)` for each item in order; the next item (taken from `items`, which may itself
 * ask the server, as the sync's batches do for their sizes) and its read are started before the
 * current result is yielded, so they run while the caller works on the current one. A failure is
 * thrown when its turn comes, never earlier as an unhandled rejection. However the caller stops
 * (done, break, an error), no read of this generator is still running when it has stopped.
 */
export async function* readAhead<T, R>(items: Iterable<T> | AsyncIterable<T>, read: (item: T) => Promise<R>): AsyncGenerator<R> {
  const source = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]()
  const start = () => {
    const reading = (async (): Promise<{ value: R } | undefined> => {
      const item = await source.next()
      return item.done ? undefined : { value: await read(item.value) }
    })()
    reading.catch(() => {}) // thrown when awaited below
    return reading
  }
  let next: ReturnType<typeof start> | undefined = start()
  try {
    for (;;) {
      const current = await next
      next = undefined
      if (!current) return
      next = start()
      yield current.value
    }
  } finally {
    await next?.catch(() => {})
    await source.return?.()
  }
}
