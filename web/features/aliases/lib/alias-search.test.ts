import { describe, expect, it } from 'vitest'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { filterAliases, pageCount, pageItems, pageWindow } from './alias-search.ts'

const alias = (over: Partial<AliasView>): AliasView => ({
  id: crypto.randomUUID(), userId: 'u', alias: 'shop', domain: 'veil.test', forwardTo: 'me@example.com',
  lastForwardTo: null, active: true, encryptForwarded: true, spamHandling: 'tag', notes: null, madeBy: null, hostname: null, createdAt: '', updatedAt: '',
  counters: { forwarded: 0, replied: 0, dropped: 0, failed: 0, spam: 0 }, ...over,
})

describe('filterAliases', () => {
  const list = [
    alias({ alias: 'Shopping', notes: 'Groceries' }),
    alias({ alias: 'news', forwardTo: 'https://hooks.example.com/in' }),
    alias({ alias: 'old', forwardTo: 'null', lastForwardTo: 'kept@example.org', active: false }),
  ]
  it('matches alias@domain, targets and notes case-insensitively', () => {
    expect(filterAliases(list, 'shopping@VEIL').map((a) => a.alias)).toEqual(['Shopping'])
    expect(filterAliases(list, 'HOOKS').map((a) => a.alias)).toEqual(['news'])
    expect(filterAliases(list, 'grocer').map((a) => a.alias)).toEqual(['Shopping'])
    expect(filterAliases(list, '  ')).toHaveLength(3)
  })
  it('finds a paused alias by the literal null and by the targets it resumes with', () => {
    expect(filterAliases(list, 'null').map((a) => a.alias)).toEqual(['old'])
    expect(filterAliases(list, 'kept@').map((a) => a.alias)).toEqual(['old'])
  })
})

describe('pagination', () => {
  it('counts at least one page and slices by page', () => {
    expect(pageCount(0, 10)).toBe(1)
    expect(pageCount(101, 25)).toBe(5)
    expect(pageItems([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4])
  })
  it('shows at most five page buttons around the current page', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3])
    expect(pageWindow(1, 9)).toEqual([1, 2, 3, 4, 5])
    expect(pageWindow(5, 9)).toEqual([3, 4, 5, 6, 7])
    expect(pageWindow(9, 9)).toEqual([5, 6, 7, 8, 9])
    expect(pageWindow(8, 9)).toEqual([5, 6, 7, 8, 9])
  })
})
