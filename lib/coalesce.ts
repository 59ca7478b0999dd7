// Group commit for small writes: calls made while a statement is in flight are gathered and run
// together as the next one. An idle caller runs at once (no added latency); a busy process sends
// one statement per batch instead of one per call.

/** `run` gets the gathered inputs and resolves with one output per input, in order. */
export function coalesce<I, O>(run: (inputs: I[]) => Promise<O[]>, maxBatch = 64): (input: I) => Promise<O> {
  let waiting: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = []
  let running = false
  async function drain() {
    running = true
    while (waiting.length) {
      const batch = waiting.slice(0, maxBatch)
      waiting = waiting.slice(maxBatch)
      try {
        const outputs = await run(batch.map((b) => b.input))
        batch.forEach((b, i) => b.resolve(outputs[i]))
      } catch (error) {
        for (const b of batch) b.reject(error)
      }
    }
    running = false
  }
  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, resolve, reject })
      if (!running) void drain()
    })
}
