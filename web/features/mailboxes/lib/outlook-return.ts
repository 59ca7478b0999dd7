// The query string the Microsoft sign-in returns with (README "Outlook (OAuth2)"): a status of
// success with the new account and its first sync job, or any other status with a reason. The
// server keeps the tokens; none travels in the address.
import { OUTLOOK_RETURN_REASONS } from '../../../../shared/outlook-connection.ts'

export const OUTLOOK_START_URL = '/api/auth/microsoft'

export type OutlookReturn =
  | { status: 'success'; providerId?: string; jobId?: string }
  | { status: 'failure'; description: string }

const DEFAULT_FAILURE = 'Could not connect your Outlook account. Please try again.'

/** Undefined when the address carries no Outlook status (an ordinary visit). */
export function readOutlookReturn(search: URLSearchParams): OutlookReturn | undefined {
  const status = search.get('status')
  if (status === null) return undefined
  if (status === 'success') {
    return { status: 'success', providerId: search.get('providerId') || undefined, jobId: search.get('jobId') || undefined }
  }
  const reason = search.get('reason') ?? ''
  // only the server's known reasons are shown: the address is for anyone to write
  const description = Object.hasOwn(OUTLOOK_RETURN_REASONS, reason) ? OUTLOOK_RETURN_REASONS[reason as keyof typeof OUTLOOK_RETURN_REASONS] : DEFAULT_FAILURE
  return { status: 'failure', description }
}

/** The address without the Outlook return's parameters, so a reload does not announce it again. */
export function withoutOutlookReturn(search: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(search)
  for (const key of ['status', 'reason', 'providerId', 'jobId']) rest.delete(key)
  return rest
}
