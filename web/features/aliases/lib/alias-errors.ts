import * as v from 'valibot'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { RESERVED_ALIAS_MESSAGE } from '../../../../shared/reserved-alias-names.ts'

export type FieldErrorMap = Partial<Record<string, string>>

export interface ErrorToast {
  title: string
  description: string
}

export const VALIDATION_TOAST: ErrorToast = {
  title: 'Validation Error',
  description: 'Please fix the errors shown below and try again',
}
export const RESERVED_TOAST: ErrorToast = { title: 'Alias Not Allowed', description: RESERVED_ALIAS_MESSAGE }

/** First message per field of a failed valibot parse. */
export function schemaFieldErrors(issues: v.BaseIssue<unknown>[]): FieldErrorMap {
  const nested = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]).nested ?? {}
  const fields: FieldErrorMap = {}
  for (const [field, messages] of Object.entries(nested)) if (messages?.[0]) fields[field] = messages[0]
  return fields
}

/** First message per field of a server answer `{ errors: { field: [message] } }`. */
export function serverFieldErrors(error: unknown): FieldErrorMap {
  const fields: FieldErrorMap = {}
  if (error instanceof ApiError && error.errors) {
    for (const [field, messages] of Object.entries(error.errors)) if (messages?.[0]) fields[field] = messages[0]
  }
  return fields
}

const isReservedAnswer = (error: unknown) =>
  error instanceof ApiError && typeof error.body === 'object' && error.body !== null && 'reserved' in error.body

/** "Try again after {local time}" for a rate-limit answer that names its reset time. */
function rateLimitDescription(error: ApiError): string {
  const reset = error.resetTime ? new Date(error.resetTime) : undefined
  if (!reset || Number.isNaN(reset.getTime())) return error.message
  return `${error.message} Try again after ${reset.toLocaleTimeString()}`
}

/** Spec §8 alias errors for a failed create: the toast, and the messages to show under fields. */
export function describeCreateError(error: unknown): { toast: ErrorToast; fields: FieldErrorMap } {
  const fields = serverFieldErrors(error)
  if (error instanceof ApiError && error.status === 429 && error.rateLimited) {
    return { toast: { title: 'Rate Limit Exceeded', description: rateLimitDescription(error) }, fields: {} }
  }
  if (isReservedAnswer(error)) return { toast: RESERVED_TOAST, fields }
  if (error instanceof ApiError && error.status !== 409 && Object.keys(fields).length > 0) {
    return { toast: VALIDATION_TOAST, fields }
  }
  return { toast: { title: 'Creation Failed', description: errorMessage(error, 'Failed to create alias') }, fields }
}

/** Spec §8 for a failed inline edit; a reserved new name reads as on the create form. */
export function describeUpdateError(error: unknown): ErrorToast {
  if (isReservedAnswer(error)) return RESERVED_TOAST
  return { title: 'Update Failed', description: errorMessage(error, 'Failed to update alias') }
}
