import { describe, expect, it } from 'vitest'
import { detailDate, listDate, storageText } from './mail-dates.ts'

// Local times: the reader sees their own clock whatever TZ the test runs in.
const at = (...args: [number, number, number, number, number]) => new Date(...args).toISOString()

describe('mail dates', () => {
  it('shows M/d on mobile and MMM d on desktop in the list', () => {
    const now = new Date(2026, 5, 1, 12, 0)
    expect(listDate(at(2026, 2, 7, 9, 5), true, now)).toBe('3/7')
    expect(listDate(at(2026, 2, 7, 9, 5), false, now)).toBe('Mar 7')
    expect(listDate(at(2026, 11, 31, 23, 59), false, now)).toBe('Dec 31')
  })

  it("shows today's mail by its time and another year's with its year", () => {
    const now = new Date(2026, 10, 27, 15, 0)
    expect(listDate(at(2026, 10, 27, 9, 5), false, now)).toBe('9:05 AM')
    expect(listDate(at(2026, 10, 27, 0, 30), true, now)).toBe('12:30 AM')
    expect(listDate(at(2026, 10, 26, 23, 59), false, now)).toBe('Nov 26')
    expect(listDate(at(2025, 2, 7, 9, 5), false, now)).toBe('Mar 7, 2025')
    expect(listDate(at(2025, 2, 7, 9, 5), true, now)).toBe('3/7/25')
    expect(listDate(at(2009, 0, 1, 9, 5), true, now)).toBe('1/1/09')
  })

  it('shows "MMM d, yyyy at h:mm a" in the detail', () => {
    expect(detailDate(at(2026, 10, 23, 0, 4))).toBe('Nov 23, 2026 at 12:04 AM')
    expect(detailDate(at(2026, 10, 23, 12, 30))).toBe('Nov 23, 2026 at 12:30 PM')
    expect(detailDate(at(2026, 0, 2, 17, 9))).toBe('Jan 2, 2026 at 5:09 PM')
  })

  it('says nothing for a date it cannot read', () => {
    expect(listDate('not a date', false)).toBe('')
    expect(detailDate('')).toBe('')
  })

  it("estimates storage as the specification does, about 5.2 KB an e-mail, rounded", () => {
    expect(storageText(0)).toBe('0 KB')
    expect(storageText(11)).toBe('~57 KB')
    expect(storageText(196)).toBe('~1019 KB')
    expect(storageText(1000)).toBe('~5.1 MB')
    expect(storageText(300_000)).toBe('~1.5 GB')
  })
})
