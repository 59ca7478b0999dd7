import { describe, expect, it } from 'vitest'
import { MAX_QUERY_CHARS, parseMailSearch, type MailSearch } from './mail-search-query.ts'

const parsed = (q: string): MailSearch => {
  const result = parseMailSearch(q)
  if (!result.ok) throw new Error(result.message)
  return result.search
}
const refused = (q: string): string => {
  const result = parseMailSearch(q)
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.search)}`)
  return result.message
}

describe('the search box language', () => {
  it('takes plain words, quoted phrases and every operator', () => {
    expect(parsed('invoice  "annual report" from:alice@example.com to:"Bob Ray" subject:Q3 has:attachment is:unread is:starred before:2026-02-01 after:2025/12/31'))
      .toEqual({
        words: ['invoice', 'annual report'], from: ['alice@example.com'], to: ['Bob Ray'], subject: ['Q3'], hasAttachment: true, unread: true, starred: true,
        before: '2026-02-01', after: '2025-12-31',
      })
    expect(parsed('is:read IS:Starred From:Ann').unread).toBe(false)
    expect(parsed('FROM:Ann').from).toEqual(['Ann'])
  })

  it('reads an unknown name before a colon, a time or a URL as words, and a quoted operator as a phrase', () => {
    expect(parsed('meet 10:30 https://example.com/a "from:me" foo:').words).toEqual(['meet', '10:30', 'https://example.com/a', 'from:me', 'foo:'])
  })

  it('runs an unclosed quote to the end, and ignores empty quotes and operators without a value', () => {
    expect(parsed('"weekly deals').words).toEqual(['weekly deals'])
    expect(parsed('a"b c').words).toEqual(['ab c'])
    expect(parsed('"" from: subject:"" x').words).toEqual(['x'])
    expect(parsed('"" from: subject:""').from).toEqual([])
    expect(parsed('   ')).toEqual({ words: [], from: [], to: [], subject: [], hasAttachment: false, starred: false })
  })

  it('keeps SQL and LIKE metacharacters as they are (the database escapes them)', () => {
    expect(parsed(`100% a_b back\\slash '; drop table users; -- "x' or '1'='1"`).words)
      .toEqual(['100%', 'a_b', 'back\\slash', "';", 'drop', 'table', 'users;', '--', "x' or '1'='1"])
  })

  it('turns control characters into spaces: no CR LF reaches an IMAP command', () => {
    expect(parsed('a\r\nSEARCH\u0000b\tc"d\re"').words).toEqual(['a', 'SEARCH', 'b', 'cd e'])
  })

  it('refuses what it cannot mean, with the reason', () => {
    expect(refused('has:pdf')).toBe('has: takes attachment (has:attachment)')
    expect(refused('is:important')).toBe('is: takes unread, read or starred')
    expect(refused('before:yesterday')).toBe('before: takes a date as YYYY-MM-DD')
    expect(refused('after:2026-02-30')).toBe('after: takes a date as YYYY-MM-DD')
    expect(refused('before:2026-13-01')).toBe('before: takes a date as YYYY-MM-DD')
  })

  it('bounds the input: its length and its number of terms', () => {
    expect(refused('x'.repeat(MAX_QUERY_CHARS + 1))).toMatch(/too long/)
    expect(parsed('x'.repeat(MAX_QUERY_CHARS)).words).toEqual(['x'.repeat(MAX_QUERY_CHARS)])
    expect(refused(Array.from({ length: 13 }, (_, i) => `w${i}`).join(' '))).toMatch(/too many terms/)
    // a long run of quotes and colons parses in one pass
    expect(parsed('"'.repeat(MAX_QUERY_CHARS - 1) + 'a').words.length).toBeLessThanOrEqual(1)
    expect(parsed(':'.repeat(MAX_QUERY_CHARS)).words).toEqual([':'.repeat(MAX_QUERY_CHARS)])
  })
})
