import { describe, expect, it } from 'vitest'
import { MAX_REFERENCES, replyThreading } from './reply-threading.ts'

describe('replyThreading (RFC 5322 §3.6.4)', () => {
  it("answers the parent: In-Reply-To its Message-ID, References its References then its Message-ID", () => {
    expect(replyThreading({ messageId: '<c@x>', inReplyTo: '<b@x>', references: ['<a@x>', '<b@x>'] })).toEqual({ inReplyTo: '<c@x>', references: ['<a@x>', '<b@x>', '<c@x>'] })
  })

  it("takes the parent's In-Reply-To when it has no References, and nothing of a parent with no ids", () => {
    expect(replyThreading({ messageId: '<b@x>', inReplyTo: '<a@x>', references: [] })).toEqual({ inReplyTo: '<b@x>', references: ['<a@x>', '<b@x>'] })
    expect(replyThreading({ messageId: '<a@x>', inReplyTo: null, references: [] })).toEqual({ inReplyTo: '<a@x>', references: ['<a@x>'] })
    expect(replyThreading({ messageId: null, inReplyTo: null, references: [] })).toEqual({ references: [] })
  })

  it('puts no hostile id into a header: line breaks, spaces, a second field, brackets inside', () => {
    const hostile = ['<a@x>\r\nBcc: victim@example.com', '<a b@x>', '<a@x><b@x>', 'a@x', '<>', '<a@x>\n', `<${'a'.repeat(2000)}@x>`, '<é@x>']
    for (const id of hostile) {
      const threading = replyThreading({ messageId: id, inReplyTo: id, references: [id, '<ok@x>'] })
      expect(threading, JSON.stringify(id)).toEqual({ references: ['<ok@x>'] })
    }
  })

  it(`keeps the thread's first id and its newest ones, ${MAX_REFERENCES} in all`, () => {
    const refs = Array.from({ length: 50 }, (_, i) => `<m${i}@x>`)
    const { references } = replyThreading({ messageId: '<last@x>', inReplyTo: '<m49@x>', references: refs })
    expect(references).toHaveLength(MAX_REFERENCES)
    expect(references[0]).toBe('<m0@x>')
    expect(references.at(-1)).toBe('<last@x>')
    expect(references.at(-2)).toBe('<m49@x>')
  })
})

