import { describe, expect, it } from 'vitest'
import { formatAliasCount, formatExactUserCount, formatUserCount } from './get-stats.ts'

describe('landing figures', () => {
  it('counts exactly with the right plural under 1,000 and in whole thousands above', () => {
    expect(formatUserCount({ totalUsers: 1, totalAliases: 0 })).toBe('1 user')
    expect(formatUserCount({ totalUsers: 2, totalAliases: 0 })).toBe('2 users')
    expect(formatUserCount({ totalUsers: 999, totalAliases: 0 })).toBe('999 users')
    expect(formatUserCount({ totalUsers: 1000, totalAliases: 0 })).toBe('1k+ users')
    expect(formatUserCount({ totalUsers: 48213, totalAliases: 1 })).toBe('48k+ users')
    expect(formatUserCount({ totalUsers: 1_234_567, totalAliases: 1 })).toBe('1,234k+ users')
    expect(formatExactUserCount({ totalUsers: 1, totalAliases: 0 })).toBe('1 user')
    expect(formatExactUserCount({ totalUsers: 1234, totalAliases: 0 })).toBe('1,234 users')
    expect(formatAliasCount({ totalUsers: 1, totalAliases: 1 })).toBe('1 alias created')
    expect(formatAliasCount({ totalUsers: 1, totalAliases: 12345 })).toBe('12,345 aliases created')
    expect(formatAliasCount({ totalUsers: 1, totalAliases: 3 })).toBe('3 aliases created')
  })

  it('hides a figure that is missing or zero instead of inventing one', () => {
    expect(formatUserCount(undefined)).toBeUndefined()
    expect(formatUserCount({ totalUsers: 0, totalAliases: 0 })).toBeUndefined()
    expect(formatAliasCount({ totalUsers: 5, totalAliases: 0 })).toBeUndefined()
    expect(formatUserCount({ totalUsers: Number.NaN, totalAliases: 0 })).toBeUndefined()
  })
})
