// A draft's message as it goes to the account's Drafts folder, sealed at rest (AES-256-GCM, the
// draft's id as associated data) until the write-back has APPENDed it; wiped when discarded.
import type { Config } from './config.ts'
import { SecretBox } from './secret-box.ts'

const box = (config: Pick<Config, 'secretKey'>) => new SecretBox(config.secretKey, 'mailbox-drafts')

export function sealDraftMessage(config: Pick<Config, 'secretKey'>, draftId: string, raw: Buffer): Buffer {
  return box(config).seal(raw.toString('base64'), draftId)
}

export function openDraftMessage(config: Pick<Config, 'secretKey'>, draftId: string, sealed: Buffer): Buffer {
  return Buffer.from(box(config).openText(sealed, draftId), 'base64')
}
