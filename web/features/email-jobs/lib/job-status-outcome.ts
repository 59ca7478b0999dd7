// What one status answer means for a tracked job: keep polling, or stop with the toast it deserves.
import type { ToastInput } from '../../../components/ui/use-toast.ts'
import type { EmailJobStatus } from '../api/get-email-job-status.ts'

export const SENT_TOAST: ToastInput = { title: 'Email sent successfully', description: 'Your email was delivered successfully.' }

/** Sent, but some recipients' servers refused it: the status's lastError names them with their replies. */
export const partlySentToast = (lastError: string): ToastInput => ({ title: 'Not delivered to every recipient', description: lastError, variant: 'destructive' })

/**
 * Still retrying, but it has left for some recipients (it has its messageId): lastError says to how
 * many, and who is still tried with their server's reply.
 */
export const partlyRetryingToast = (lastError: string | null): ToastInput => ({ title: 'Sent to some recipients', description: lastError ?? 'Retrying the others.' })

export interface JobStatusOutcome {
  /** Stop tracking the job. */
  done: boolean
  toast?: ToastInput
  /** The retry count already announced, so one retry is announced once. */
  retriesSeen: number
}

/**
 * The failure text: the server's last error (its relay's reply) when there is one, else the
 * sentence counting the attempts, else "Unknown error" when the job failed before any attempt.
 */
export function failedToast(status: Pick<EmailJobStatus, 'lastError' | 'currentRetries'>): ToastInput {
  const description = status.lastError
    ? status.lastError
    : status.currentRetries > 0
      ? `Unable to deliver after ${status.currentRetries} attempts. Please try sending again or contact the recipient directly.`
      : 'Unknown error'
  return { title: 'Email delivery failed', description, variant: 'destructive' }
}

export function retryToast(status: Pick<EmailJobStatus, 'lastError' | 'currentRetries' | 'maxRetries'>): ToastInput {
  return {
    title: 'Retrying email delivery',
    description: `Attempt ${status.currentRetries} of ${status.maxRetries} failed: ${status.lastError || 'Authentication failed'}. Trying again automatically.`,
  }
}

export function jobStatusOutcome(status: EmailJobStatus, retriesSeen: number): JobStatusOutcome {
  switch (status.status) {
    case 'sent':
      return { done: true, toast: status.lastError ? partlySentToast(status.lastError) : SENT_TOAST, retriesSeen }
    case 'failed':
      return { done: true, toast: failedToast(status), retriesSeen }
    case 'cancelled':
      return { done: true, retriesSeen }
    default: // pending, sending, retrying or a status this page does not know yet: keep polling
      if (status.currentRetries > retriesSeen) {
        return { done: false, toast: status.messageId ? partlyRetryingToast(status.lastError) : retryToast(status), retriesSeen: status.currentRetries }
      }
      return { done: false, retriesSeen }
  }
}
