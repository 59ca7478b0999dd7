// The parse thread's side (parse-thread.ts): each posted batch parsed, its rows prepared and
// sealed, and posted back packed. Parsing never throws on hostile mail (received-mail.ts keeps
// what it can read); anything else is answered as an error for that batch, and the sync fails
// and retries it like any other storage error.
import { parentPort, workerData } from 'node:worker_threads'
import { packBatch, prepareMessage, receivedMailSecretBox, type PreparedMessage } from './prepared-message.ts'
import type { ParseReply, ParseRequest } from './parse-thread.ts'
import { parseMessage } from './received-mail.ts'

const box = receivedMailSecretBox((workerData as { secretKey: string }).secretKey)
const port = parentPort!

port.on('message', async (request: ParseRequest) => {
  let reply: ParseReply
  let transfer: ArrayBuffer[] = []
  try {
    const sources = Buffer.from(request.bytes)
    const prepared: PreparedMessage[] = []
    for (let i = 0; i < request.metas.length; i++) {
      const [at, length] = request.spans[i]
      prepared.push(prepareMessage(box, request.owner, request.metas[i], await parseMessage(sources.subarray(at, at + length))))
    }
    const { messages, bytes } = packBatch(prepared)
    reply = { id: request.id, messages, bytes }
    transfer = [bytes]
  } catch (error) {
    // the error's name only: its message can quote the mail
    reply = { id: request.id, error: (error as Error)?.name ?? 'Error' }
  }
  port.postMessage(reply, transfer)
})
