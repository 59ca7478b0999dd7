// Queue one e-mail from any compose UI: encrypt in the browser when asked, post the job, show
// the queued toast (with Undo while the server holds the job) and track it until it settles.
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { cancelEmailJob } from '../api/cancel-email-job.ts'
import { createEmailJob, type EmailJobRequest, type QueuedEmailJob } from '../api/create-email-job.ts'
import { emailJobs } from './email-jobs.ts'
import { encryptBody } from './encrypt-body.ts'

export const QUEUED_DESCRIPTION = 'Your email is being delivered.'

/**
 * Throws whatever failed (encryption or the request); the caller shows its own failure toast.
 * `queuedTitle` is "Email sent"; `onUndone` runs once Undo has cancelled the job, so
 * the caller can give the draft back.
 */
export async function queueEmail(request: EmailJobRequest, queuedTitle = 'Email sent', onUndone?: () => void): Promise<QueuedEmailJob> {
  const body = request.useEncryption ? await encryptBody(request.body, request.recipientPublicKey ?? '') : request.body
  const job = await createEmailJob({ ...request, body })
  emailJobs.track(job.jobId)
  toast({
    title: queuedTitle,
    description: QUEUED_DESCRIPTION,
    action: job.canUndo ? { label: 'Undo', altText: 'Undo: cancel sending this email', onClick: () => void undoEmailJob(job.jobId).then((undone) => undone && onUndone?.()) } : undefined,
  })
  return job
}

/** Cancels a held job; after the undo window the server refuses with its own message. */
export async function undoEmailJob(jobId: string): Promise<boolean> {
  try {
    const result = await cancelEmailJob(jobId)
    if (!result.success) throw new Error(result.message)
    emailJobs.untrack(jobId) // the Undo toast below is all the user hears of a cancelled job
    toast({ title: 'Email sending cancelled', description: 'Your email will not be delivered.' })
    return true
  } catch (error) {
    toast({ title: 'Unable to cancel email', description: errorMessage(error, 'The email may have already been sent.'), variant: 'destructive' })
    return false
  }
}
