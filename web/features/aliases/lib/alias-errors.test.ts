import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/api-client.ts'
import { describeCreateError, describeUpdateError } from './alias-errors.ts'

describe('alias error toasts', () => {
  it('rate limit: the message plus the local reset time', () => {
    const reset = new Date(Date.now() + 60_000).toISOString()
    const error = new ApiError('You are creating aliases too quickly.', 429, { rateLimited: true, message: 'x', resetTime: reset })
    const { toast } = describeCreateError(error)
    expect(toast.title).toBe('Rate Limit Exceeded')
    expect(toast.description).toBe(`You are creating aliases too quickly. Try again after ${new Date(reset).toLocaleTimeString()}`)
  })
  it('field errors: first message per field and a Validation Error toast', () => {
    const error = new ApiError('Invalid alias format', 400, {}, { alias: ['Invalid alias format', 'other'] })
    expect(describeCreateError(error)).toEqual({
      toast: { title: 'Validation Error', description: 'Please fix the errors shown below and try again' },
      fields: { alias: 'Invalid alias format' },
    })
  })
  it('taken and anything else: Creation Failed', () => {
    const taken = new ApiError('This alias is already taken. Please choose another one.', 409, {}, { alias: ['This alias is already taken'] })
    expect(describeCreateError(taken).toast).toEqual({ title: 'Creation Failed', description: taken.message })
    expect(describeCreateError(new Error('')).toast.description).toBe('Failed to create alias')
  })
  it('reserved names read "Alias Not Allowed" on create and on edit', () => {
    const reserved = new ApiError('reserved', 400, { reserved: true }, { alias: ['reserved'] })
    expect(describeCreateError(reserved).toast.title).toBe('Alias Not Allowed')
    expect(describeUpdateError(reserved).title).toBe('Alias Not Allowed')
    expect(describeUpdateError(new Error(''))).toEqual({ title: 'Update Failed', description: 'Failed to update alias' })
  })
})
