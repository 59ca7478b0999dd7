import { apiRequest } from '../../../lib/api-client.ts'

export interface CancelEmailJobResult {
  success: boolean
  message: string
}

/** Undo: succeeds only while the job is still held; afterwards the server answers 409. */
export function cancelEmailJob(jobId: string): Promise<CancelEmailJobResult> {
  return apiRequest<CancelEmailJobResult>('POST', `/api/email-jobs/${encodeURIComponent(jobId)}/cancel`)
}
