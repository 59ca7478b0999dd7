import { describe, expect, it } from 'vitest'
import { formatUserCount } from './get-stats.ts'

describe('formatUserCount', () => {
  it('floors thousands and falls back to 31k+ when stats are missing', () => {
    expect(formatUserCount({ totalUsers: 48213, totalAliases: 1 })).toBe('48k+ users')
    expect(formatUserCount(undefined)).toBe('31k+ users')
  })
})
