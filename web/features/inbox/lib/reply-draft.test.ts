import { describe, expect, it } from 'vitest'
import { forwardDraft, replyDraft } from './reply-draft.ts'

const original = {
  fromAddress: 'alice@example.org', fromName: 'Alice', toAddress: 'me@example.com', subject: 'Lunch plans',
  receivedAt: new Date(2026, 10, 20, 13, 15).toISOString(), text: 'Friday?\nAt noon.',
}

describe('reply and forward drafts', () => {
  it('replies to the sender under "Re:" with the original quoted', () => {
    const draft = replyDraft(original)
    expect(draft.to).toBe('alice@example.org')
    expect(draft.subject).toBe('Re: Lunch plans')
    expect(draft.body).toBe(
      '\n\n-------- Original Message --------\nFrom: Alice <alice@example.org>\nTo: me@example.com\nSent: Nov 20, 2026 at 1:15 PM\nSubject: Lunch plans\n\n> Friday?\n> At noon.\n',
    )
  })

  it('does not stack prefixes', () => {
    expect(replyDraft({ ...original, subject: 'RE: Lunch plans' }).subject).toBe('RE: Lunch plans')
    expect(forwardDraft({ ...original, subject: 'Fwd: Lunch plans' }).subject).toBe('Fwd: Lunch plans')
    // "Re:" once, however the other program wrote it
    expect(replyDraft({ ...original, subject: 'Re:Lunch plans' }).subject).toBe('Re:Lunch plans')
    expect(replyDraft({ ...original, subject: 're : Lunch plans' }).subject).toBe('re : Lunch plans')
    expect(forwardDraft({ ...original, subject: 'FW: Lunch plans' }).subject).toBe('FW: Lunch plans')
  })

  it('forwards with no recipient under "Fwd:"', () => {
    const draft = forwardDraft(original)
    expect(draft).toMatchObject({ to: '', subject: 'Fwd: Lunch plans' })
    expect(draft.body).toContain('-------- Forwarded Message --------\nFrom: Alice <alice@example.org>')
  })
})
