import { describe, expect, it } from 'vitest'
import { shortcutAction, shortcutHelp, type KeyPress } from './inbox-shortcuts.ts'

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, target: { tagName: 'BODY' }, ...more })

describe('inbox shortcuts', () => {
  it('maps the keys of the issue to their actions', () => {
    expect(['j', 'k', 'o', 'Enter', 'u', 'r', 'a', 'f', 'c', 'e', '#', 's', '/', '?'].map((k) => shortcutAction(press(k))))
      .toEqual(['next', 'previous', 'open', 'open', 'back', 'reply', 'replyAll', 'forward', 'compose', 'archive', 'delete', 'star', 'search', 'help'])
  })

  it('leaves typing, modified keys and unbound keys alone', () => {
    for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT', 'input']) expect(shortcutAction(press('j', { target: { tagName } }))).toBeUndefined()
    for (const type of ['text', 'search', 'email', 'password', 'SEARCH']) expect(shortcutAction(press('/', { target: { tagName: 'INPUT', type } }))).toBeUndefined()
    // a row's checkbox takes no text: j still moves on from it
    expect(shortcutAction(press('j', { target: { tagName: 'INPUT', type: 'checkbox' } }))).toBe('next')
    expect(shortcutAction(press('j', { target: { tagName: 'DIV', isContentEditable: true } }))).toBeUndefined()
    expect(shortcutAction(press('r', { ctrlKey: true }))).toBeUndefined() // reload
    expect(shortcutAction(press('f', { metaKey: true }))).toBeUndefined() // find
    expect(shortcutAction(press('e', { altKey: true }))).toBeUndefined()
    // names of Object.prototype are not keys of the table
    for (const key of ['x', 'J', 'constructor', '__proto__', 'toString', '']) expect(shortcutAction(press(key))).toBeUndefined()
    expect(shortcutAction(press('j', { target: null }))).toBe('next')
  })

  it('lists a, Reply all, among the keys of a message', () => {
    const message = shortcutHelp(false).find((g) => g.title === 'In a message')!.shortcuts
    expect(message.find((s) => s.keys.includes('a'))?.text).toBe('Reply all')
  })

  it('lists "/" only when there is a search box to focus', () => {
    const keys = (search: boolean) => shortcutHelp(search).flatMap((g) => g.shortcuts.flatMap((s) => s.keys))
    expect(keys(false)).not.toContain('/')
    expect(keys(true)).toContain('/')
  })
})
