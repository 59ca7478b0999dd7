// What an email job sends, sealed at rest (AES-256-GCM, the job id as associated data) until
// the job is finished and the content wiped.
import { SecretBox } from './secret-box.ts'

export type EmailJobContent =
  | { kind: 'compose'; subject: string; body: string; sharedPublicKey?: string }
  /** a message submitted over SMTP, as the client sent it (base64) */
  | { kind: 'raw'; raw: string }

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
