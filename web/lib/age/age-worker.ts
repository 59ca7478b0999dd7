// The age work of the browser (scrypt lock/unlock of private keys, message decryption) runs in
// this dedicated worker so the page stays responsive while scrypt holds a CPU for seconds.
// Started by age-client.ts only; Vite builds it, with age-encryption, into its own chunk.
import { AgeFailure, createKeyPair, decryptArmored, decryptFile, readArmored, unlockPrivateKey } from '../../../shared/age-core.ts'
import type { AgeOp, AgeOps, AgeRequest, AgeResponse } from './age-protocol.ts'

type Handlers = { [K in AgeOp]: (args: AgeOps[K]['args']) => AgeOps[K]['result'] | Promise<AgeOps[K]['result']> }

const handlers: Handlers = {
  createKeyPair: ({ masterPassword }) => createKeyPair(masterPassword),
  unlockPrivateKey: ({ encryptedPrivateKey, masterPassword, publicKey }) => unlockPrivateKey(encryptedPrivateKey, masterPassword, publicKey),
  checkArmored: ({ encryptedText }) => {
    readArmored(encryptedText)
    return null
  },
  // The message is read before the key, so a damaged paste is reported as such.
  decryptWithPrivateKey: ({ encryptedText, privateKey }) => decryptArmored(encryptedText, privateKey),
  decryptWithKeyMaterial: async ({ encryptedText, encryptedPrivateKey, masterPassword, publicKey }) => {
    const file = readArmored(encryptedText)
    return decryptFile(file, await unlockPrivateKey(encryptedPrivateKey, masterPassword, publicKey))
  },
}

// The DOM lib types `self` as a Window; this is the part of a worker's scope used here.
interface WorkerScope {
  postMessage(message: AgeResponse): void
  addEventListener(type: 'message', listener: (event: MessageEvent<AgeRequest>) => void): void
}
const scope = self as unknown as WorkerScope

async function run({ op, args }: AgeRequest): Promise<unknown> {
  const handler = handlers[op] as ((args: AgeRequest['args']) => unknown) | undefined
  if (!handler) throw new Error(`Unknown age operation: ${String(op)}`)
  return handler(args)
}

scope.addEventListener('message', async (event) => {
  const { id } = event.data
  try {
    scope.postMessage({ id, ok: true, result: await run(event.data) })
  } catch (error) {
    if (error instanceof AgeFailure) scope.postMessage({ id, ok: false, kind: error.kind, message: error.message })
    else scope.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) })
  }
})
