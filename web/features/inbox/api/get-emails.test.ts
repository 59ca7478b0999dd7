import { describe, expect, it } from 'vitest'
import { emailsQueryKey, keepPageTurns } from './get-emails.ts'

const view = { account: 'all', folder: undefined, category: 'inbox', page: 0 } as const
const key = (over: Partial<Parameters<typeof emailsQueryKey>[1]> = {}) => emailsQueryKey('user-1', { ...view, ...over })
const rows = ['row of the page before']

describe('the rows kept on screen while a page of emails loads', () => {
  it('are the page before when only the page turned', () => {
    expect(keepPageTurns(rows, { queryKey: key() }, key({ page: 1 }))).toBe(rows)
    expect(keepPageTurns(rows, { queryKey: key({ page: 2 }) }, key({ page: 1 }))).toBe(rows)
  })

  it("are none when the list is another: another account's, folder's or category's rows never sit under this one's pager", () => {
    expect(keepPageTurns(rows, { queryKey: key() }, key({ account: 'provider-2' }))).toBeUndefined()
    expect(keepPageTurns(rows, { queryKey: key({ account: 'provider-2' }) }, key({ account: 'provider-2', folder: 'folder-9' }))).toBeUndefined()
    expect(keepPageTurns(rows, { queryKey: key() }, key({ category: 'starred' }))).toBeUndefined()
    // another search is another list
    expect(keepPageTurns(rows, { queryKey: key() }, key({ q: 'from:ann' }))).toBeUndefined()
    expect(keepPageTurns(rows, { queryKey: key({ q: 'from:ann' }) }, key({ q: 'from:ann', page: 1 }))).toBe(rows)
    expect(keepPageTurns(rows, { queryKey: emailsQueryKey('user-2', view) }, key())).toBeUndefined()
    expect(keepPageTurns(rows, undefined, key())).toBeUndefined()
  })
})
