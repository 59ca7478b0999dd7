import { describe, expect, it } from 'vitest'
import { expectLibraryShape } from './library-shape.ts'

// a library's step, its source as the library ships it (not through this file's transform)
const step = new Function("return this.lastByte === 0x0a ? 'end' : 'more'") as () => string

describe('the shape of a library step we replace', () => {
  it('passes when the source has every part and the methods are there', () => {
    expect(() => expectLibraryShape("lib's step", step, ['this.lastByte === 0x0a', "'end'"], 'ours.ts', { target: { send() {} }, names: ['send'] })).not.toThrow()
  })

  it('stops with what is missing and the file to review when the library changed', () => {
    expect(() => expectLibraryShape("lib's step", step, ['this.lastByte', 'this.outByteCount'], 'ours.ts'))
      .toThrow("lib's step changed (this.outByteCount not found): review ours.ts before upgrading")
    // a method gone, or no longer a function
    expect(() => expectLibraryShape("lib's step", step, [], 'ours.ts', { target: { send: 'text' }, names: ['send', 'close'] }))
      .toThrow("lib's step changed (send, close not found): review ours.ts before upgrading")
  })
})
