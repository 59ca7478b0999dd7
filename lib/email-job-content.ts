// What an email job sends, sealed at rest (AES-256-GCM, the job id as associated data) until
// the job is finished and the content wiped.
import { SecretBox } from './secret-box.ts'

export type EmailJobContent =
  /** the message as it will leave (base64): built at compose time, or as an SMTP client sent it */
  | { kind: 'raw'; raw: string }
  /** the parts of a compose job queued before messages were built at queue time */
  | { kind: 'compose'; subject: string; body: string; sharedPublicKey?: string }

const boxes = new Map<string, SecretBox>()
const box = (secretKey: string) => {
  let b = boxes.get(secretKey)
  if (!b) boxes.set(secretKey, (b = new SecretBox(secretKey, 'email-job')))
  return b
}

export function sealEmailJobContent(secretKey: string, jobId: string, content: EmailJobContent): Buffer {
  return box(secretKey).seal(JSON.stringify(content), jobId)
}

export function openEmailJobContent(secretKey: string, jobId: string, sealed: Buffer): EmailJobContent {
  return JSON.parse(box(secretKey).openText(sealed, jobId)) as EmailJobContent
}
