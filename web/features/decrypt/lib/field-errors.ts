import * as v from 'valibot'

export type FieldErrors = Partial<Record<string, string>>

/** The first message per field of a failed parse. */
export function firstErrors(issues: v.BaseIssue<unknown>[]): FieldErrors {
  const nested = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]).nested ?? {}
  return Object.fromEntries(Object.entries(nested).map(([field, messages]) => [field, messages?.[0]]))
}
