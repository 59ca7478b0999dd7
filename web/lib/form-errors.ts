// The first message per field of a failed form, from the browser's own valibot parse or from the
// API's `{ errors: { field: [message] } }` answer, to show under each field.
import * as v from 'valibot'
import { ApiError } from './api-client.ts'

export type FieldErrorMap = Partial<Record<string, string>>

/** First message per field from a failed valibot parse. */
export function issuesToFieldErrors(issues: v.BaseIssue<unknown>[]): FieldErrorMap {
  const nested = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]).nested ?? {}
  const errors: FieldErrorMap = {}
  for (const [field, messages] of Object.entries(nested)) if (messages?.[0]) errors[field] = messages[0]
  return errors
}

/** First message per field from a server answer `{ errors: { field: [msg] } }`. */
export function apiFieldErrors(error: unknown): FieldErrorMap {
  const errors: FieldErrorMap = {}
  if (error instanceof ApiError && error.errors) {
    for (const [field, messages] of Object.entries(error.errors)) if (messages?.[0]) errors[field] = messages[0]
  }
  return errors
}
