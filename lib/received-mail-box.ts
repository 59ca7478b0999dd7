// The box that seals received mail at rest (its own key from SECRET_KEY): the sync seals what it
// fetches, the API opens it for the reader. Here, below both (scripts/floors.test.ts).
import type { Config } from './config.ts'
import { SecretBox } from './secret-box.ts'

const boxes = new Map<string, SecretBox>()
/** One box per secret key, made once: deriving its key (HKDF) cost every list request ~70 µs. */
export function receivedMailBox(config: Pick<Config, 'secretKey'>): SecretBox {
  let box = boxes.get(config.secretKey)
  if (!box) boxes.set(config.secretKey, (box = new SecretBox(config.secretKey, 'received-mail')))
  return box
}
