import type { EmailJobStatusView } from '../../../../shared/email-job-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** A status the browser may not know yet is read as "still in progress". */
export type EmailJobStatus = Omit<EmailJobStatusView, 'status' | 'success'> & {
  success: boolean
  status: EmailJobStatusView['status'] | (string & {})
}

export function getEmailJobStatus(jobId: string): Promise<EmailJobStatus> {
  return apiGet<EmailJobStatus>(`/api/email-jobs/${encodeURIComponent(jobId)}/status`)
}
