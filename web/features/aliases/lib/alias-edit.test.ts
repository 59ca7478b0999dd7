import { describe, expect, it } from 'vitest'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { canSaveDraft, draftChanges, draftFromAlias } from './alias-edit.ts'

const base: AliasView = {
  id: 'a', userId: 'u', alias: 'shop', domain: 'veil.test', forwardTo: 'me@example.com', lastForwardTo: null,
  active: true, encryptForwarded: true, spamHandling: 'tag', notes: 'old note', madeBy: null, hostname: null, createdAt: '', updatedAt: '', counters: { forwarded: 0, replied: 0, dropped: 0, failed: 0, spam: 0 },
}

describe('inline edit', () => {
  it('saves only with an alias and targets that contain an @', () => {
    expect(canSaveDraft({ alias: 'x', forwardTo: 'a@b.c', notes: '' })).toBe(true)
    expect(canSaveDraft({ alias: '  ', forwardTo: 'a@b.c', notes: '' })).toBe(false)
    expect(canSaveDraft({ alias: 'x', forwardTo: ' ', notes: '' })).toBe(false)
    expect(canSaveDraft({ alias: 'x', forwardTo: 'https://hook.example.com', notes: '' })).toBe(false)
  })
  it('sends only what changed, trimmed, and leaves empty notes out', () => {
    expect(draftChanges(base, draftFromAlias(base))).toEqual({})
    expect(draftChanges(base, { alias: ' shop2 ', forwardTo: 'me@example.com', notes: '' })).toEqual({ alias: 'shop2' })
    expect(draftChanges(base, { alias: 'shop', forwardTo: 'you@example.com', notes: 'new' })).toEqual({ forwardTo: 'you@example.com', notes: 'new' })
  })
  it('edits a paused alias against the targets it resumes with', () => {
    const paused = { ...base, active: false, forwardTo: 'null', lastForwardTo: 'me@example.com' }
    expect(draftFromAlias(paused).forwardTo).toBe('me@example.com')
    expect(draftChanges(paused, draftFromAlias(paused))).toEqual({})
  })
})
