import type { CreateEmailJobInput } from '../../../../shared/email-job-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

/** What the compose page and the inbox dialog ask to send: the shared schema's parsed output. */
export type EmailJobRequest = Pick<
  CreateEmailJobInput,
  'to' | 'cc' | 'subject' | 'body' | 'fromAliasId' | 'fromProviderId' | 'draftId' | 'useEncryption' | 'recipientPublicKey' | 'shareMyPublicKey' | 'myPublicKeyToShare' | 'original'
>

export interface QueuedEmailJob {
  jobId: string
  /** True while the server holds the job for its undo window. */
  canUndo: boolean
}

/** POST /api/email-jobs (shared/email-job-schemas.ts); the body must already be what should be sent. */
export function createEmailJob(request: EmailJobRequest): Promise<QueuedEmailJob> {
  return apiRequest<QueuedEmailJob>('POST', '/api/email-jobs', {
    // the spec's `to` text: one address, or several separated by commas (shared/recipient-list.ts)
    to: request.to.join(', '),
    // a reply all's Cc, or one added with the Cc link
    ...(request.cc.length ? { cc: request.cc.join(', ') } : {}),
    subject: request.subject,
    body: request.body,
    // an alias, or a connected mailbox sending as itself through its own SMTP server
    ...(request.fromProviderId ? { fromProviderId: request.fromProviderId } : { fromAliasId: request.fromAliasId }),
    // the draft saved while writing leaves the mailbox's Drafts folder
    ...(request.draftId ? { draftId: request.draftId } : {}),
    useEncryption: request.useEncryption,
    recipientPublicKey: request.useEncryption ? (request.recipientPublicKey ?? '') : '',
    shareMyPublicKey: request.shareMyPublicKey,
    myPublicKeyToShare: request.shareMyPublicKey ? (request.myPublicKeyToShare ?? '') : '',
    priority: 0, // the web app never jumps the queue; priority is for API clients
    // the inbox's Reply and Forward: the message answered (threading, its attachments, its mark once sent)
    ...(request.original ? { original: request.original } : {}),
  })
}
