import { describe, expect, it } from 'vitest'
import { inboxSearch, readInboxView } from './inbox-view.ts'

describe('the inbox view in the address', () => {
  it('reads defaults, a category, an account and a page', () => {
    expect(readInboxView(new URLSearchParams(''))).toEqual({ account: 'all', category: 'inbox', page: 0 })
    expect(readInboxView(new URLSearchParams('account=a1&category=starred&page=2'))).toEqual({ account: 'a1', category: 'starred', page: 2 })
    const folder = '0b6c9a52-4a0e-4f7e-9d43-5c1f0e2b7a11'
    expect(readInboxView(new URLSearchParams(`account=a1&folder=${folder}&page=1`))).toStrictEqual({ account: 'a1', category: 'inbox', page: 1, folder })
  })

  it('ignores what it cannot use, and never pages the unread category', () => {
    expect(readInboxView(new URLSearchParams('category=spam&page=-1'))).toEqual({ account: 'all', category: 'inbox', page: 0 })
    expect(readInboxView(new URLSearchParams('category=unread&page=3')).page).toBe(0)
    expect(readInboxView(new URLSearchParams('folder=../x')).folder).toBeUndefined()
  })

  it('writes back only what differs from the defaults', () => {
    expect(inboxSearch({ account: 'all', category: 'inbox', page: 0 })).toBe('')
    expect(inboxSearch({ account: 'a1', category: 'starred', page: 1 })).toBe('?account=a1&category=starred&page=1')
    expect(inboxSearch({ account: 'a1', folder: 'f1', category: 'inbox', page: 0 })).toBe('?account=a1&folder=f1')
  })

  it('keeps the search in the address, trimmed and bounded, so Back and Forward return to it', () => {
    const view = readInboxView(new URLSearchParams('q=%20from%3Aann%20%22weekly%20deals%22%20&page=1'))
    expect(view).toStrictEqual({ account: 'all', category: 'inbox', page: 1, q: 'from:ann "weekly deals"' })
    expect(inboxSearch(view)).toBe('?page=1&q=from%3Aann+%22weekly+deals%22')
    expect(readInboxView(new URLSearchParams(inboxSearch(view)))).toStrictEqual(view)
    expect(readInboxView(new URLSearchParams('q=%20%20')).q).toBeUndefined()
    expect(readInboxView(new URLSearchParams(`q=${'x'.repeat(600)}`)).q).toHaveLength(500)
  })
})
