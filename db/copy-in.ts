// COPY … FROM STDIN through postgres.js's writable stream, on a transaction's connection.
//
// postgres.js 3.4.9 never finishes the stream when Postgres refuses the data after the stream's
// end (porsager/postgres#1173: the error goes to the COPY's query promise, which has already
// resolved with the stream), so waiting for 'finish' could wait forever. Completion is read from a
// statement sent right after the data on the same connection: it succeeds when the COPY did, and
// fails with 25P02 (transaction aborted) when the COPY failed. A refusal that arrives while the
// data is still being written does reach the stream, with Postgres's own error.
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import type { Tx } from './client.ts'

/** The COPY was refused after all its data had been sent; postgres.js did not pass on why (the server's log has it). */
export class CopyRefusedError extends Error {
  constructor(statement: string, options: ErrorOptions) {
    super(`${statement}: refused by Postgres (the reason is in the server's log; postgres.js 3.4.9 drops it)`, options)
  }
}

/**
 * Sends `chunks` as the data of `statement` and resolves once Postgres has stored them. Nothing
 * else may run on `tx` until then: a statement that postgres.js sends before Postgres has answered
 * the COPY arrives in its data and fails it, and one sent after is refused by postgres.js.
 */
export async function copyIn(tx: Tx, statement: string, chunks: readonly Buffer[]): Promise<void> {
  const stream = await tx.unsafe(statement).writable()
  // postgres.js destroys the stream with Postgres's error; an 'error' without a listener would end the process
  stream.on('error', () => {})
  await writeAll(stream, chunks)
  // with nothing left to write, end() sends CopyDone at once, so the next statement is not taken for data
  stream.end()
  try {
    await tx`select 1`
  } catch (error) {
    if ((error as { code?: string }).code === '25P02') throw new CopyRefusedError(statement, { cause: error })
    throw error
  }
}

/** Writes with backpressure and waits until the socket has taken the last chunk; Postgres's error if the COPY was refused meanwhile. */
async function writeAll(stream: Writable, chunks: readonly Buffer[]): Promise<void> {
  for (const [i, chunk] of chunks.entries()) {
    if (stream.errored) throw stream.errored
    if (i === chunks.length - 1) {
      await new Promise<void>((resolve) => stream.write(chunk, () => resolve()))
    } else if (!stream.write(chunk)) {
      await once(stream, 'drain')
    }
  }
  if (stream.errored) throw stream.errored
}
