import { describe, expect, it } from 'vitest'
import { linkify, splitContent } from './message-content.ts'

const BLOCK = '-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOQ==\n-----END AGE ENCRYPTED FILE-----'

describe('splitContent', () => {
  it('turns each complete armored block into a widget between the text around it', () => {
    expect(splitContent(`Hello,\n\n${BLOCK}\nBye\n`)).toEqual([
      { kind: 'text', text: 'Hello,\n' },
      { kind: 'age', armored: BLOCK + '\n' },
      { kind: 'text', text: 'Bye\n' },
    ])
  })

  it('opens a quoted block without its quote markers, and leaves an unterminated block as text', () => {
    const quoted = BLOCK.split('\n').map((l) => `> > ${l}`).join('\n')
    expect(splitContent(quoted)).toEqual([{ kind: 'age', armored: BLOCK + '\n' }])
    const cut = 'see:\n-----BEGIN AGE ENCRYPTED FILE-----\nYWdl'
    expect(splitContent(cut)).toEqual([{ kind: 'text', text: cut }])
  })
})

describe('linkify', () => {
  it('finds web and mail links, leaving trailing punctuation and markup as text', () => {
    expect(linkify('See https://shop.example/track?id=1. Or www.example.org, <b>x</b>')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://shop.example/track?id=1', href: 'https://shop.example/track?id=1' },
      { kind: 'text', text: '. Or ' },
      { kind: 'link', text: 'www.example.org', href: 'https://www.example.org' },
      { kind: 'text', text: ', <b>x</b>' },
    ])
  })

  it('never makes a link of javascript: or data: text', () => {
    expect(linkify('javascript:alert(1) data:text/html,x').every((s) => s.kind === 'text')).toBe(true)
  })
})
