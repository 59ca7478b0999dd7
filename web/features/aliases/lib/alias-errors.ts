import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { apiFieldErrors, type FieldErrorMap } from '../../../lib/form-errors.ts'
import { RESERVED_ALIAS_MESSAGE } from '../../../../shared/reserved-alias-names.ts'

export interface ErrorToast {
  title: string
  description: string
}

export const VALIDATION_TOAST: ErrorToast = {
  title: 'Validation Error',
  description: 'Please fix the errors shown below and try again',
}
export const RESERVED_TOAST: ErrorToast = { title: 'Alias Not Allowed', description: RESERVED_ALIAS_MESSAGE }

const isReservedAnswer = (error: unknown) =>
  error instanceof ApiError && typeof error.body === 'object' && error.body !== null && 'reserved' in error.body

/** "Try again after {local time}" for a rate-limit answer that names its reset time. */
function rateLimitDescription(error: ApiError): string {
  const reset = error.resetTime ? new Date(error.resetTime) : undefined
  if (!reset || Number.isNaN(reset.getTime())) return error.message
  return `${error.message} Try again after ${reset.toLocaleTimeString()}`
}

/** A failed create: the toast, and the messages to show under fields. */
export function describeCreateError(error: unknown): { toast: ErrorToast; fields: FieldErrorMap } {
  const fields = apiFieldErrors(error)
  if (error instanceof ApiError && error.status === 429 && error.rateLimited) {
    return { toast: { title: 'Rate Limit Exceeded', description: rateLimitDescription(error) }, fields: {} }
  }
  if (isReservedAnswer(error)) return { toast: RESERVED_TOAST, fields }
  if (error instanceof ApiError && error.status !== 409 && Object.keys(fields).length > 0) {
    return { toast: VALIDATION_TOAST, fields }
  }
  return { toast: { title: 'Creation Failed', description: errorMessage(error, 'Failed to create alias') }, fields }
}

/** A failed inline edit; a reserved new name reads as on the create form. */
export function describeUpdateError(error: unknown): ErrorToast {
  if (isReservedAnswer(error)) return RESERVED_TOAST
  return { title: 'Update Failed', description: errorMessage(error, 'Failed to update alias') }
}
