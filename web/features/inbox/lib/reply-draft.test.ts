import { describe, expect, it } from 'vitest'
import { editDraft, forwardDraft, replyAllDraft, replyDraft, withoutOwnAddresses } from './reply-draft.ts'

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

  it('replies all: To the sender and the other To recipients, Cc the Cc, each once; threaded and quoted as Reply', () => {
    const all = { ...original, id: '6b1f9a4e-0c9e-4a55-9a0e-2f4d3c1b0a99', toAddress: 'me@example.com, Bob@example.net, alice@EXAMPLE.org', ccAddresses: 'carol@example.com, bob@example.net, dan@example.edu' }
    const draft = replyAllDraft(all)
    expect(draft).toMatchObject({ to: 'alice@example.org, me@example.com, Bob@example.net', cc: 'carol@example.com, dan@example.edu', subject: 'Re: Lunch plans', original: { emailId: all.id, action: 'reply' } })
    expect(draft.body).toBe(replyDraft(all).body)
    // Reply-To, when the sender named one, instead of From (a list's address, a helpdesk)
    expect(replyAllDraft({ ...all, replyTo: 'list@lists.example' }).to).toBe('list@lists.example, me@example.com, Bob@example.net, alice@EXAMPLE.org')
    expect(replyDraft({ ...all, replyTo: 'list@lists.example' }).to).toBe('list@lists.example')
    expect(replyAllDraft({ ...original, ccAddresses: '' }).cc).toBe('')
  })

  it('leaves the user\'s own addresses out of a reply all, in any case; one to the user\'s own mail keeps its recipients', () => {
    const draft = replyAllDraft({ ...original, toAddress: 'ME@example.com, bob@example.net, shop@veilmail.test', ccAddresses: 'Shop@Veilmail.test, carol@example.com' })
    expect(withoutOwnAddresses(draft, ['me@example.com', 'shop@veilmail.test'])).toMatchObject({ to: 'alice@example.org, bob@example.net', cc: 'carol@example.com' })
    // the user wrote it: the sender is the user, so its recipients become the To
    const mine = replyAllDraft({ ...original, fromAddress: 'me@example.com', toAddress: 'me@example.com', ccAddresses: 'bob@example.net, carol@example.com' })
    expect(withoutOwnAddresses(mine, ['me@example.com'])).toMatchObject({ to: 'bob@example.net, carol@example.com', cc: '' })
  })

  it('reopens a draft with its To and Cc, not as a reply all', () => {
    const draft = editDraft({ ...original, id: 'd1', providerId: 'p1', toAddress: 'bob@example.net', ccAddresses: 'carol@example.com', subject: 'Plans', text: 'Draft' })
    expect(draft).toMatchObject({ to: 'bob@example.net', cc: 'carol@example.com', fromAlias: 'mailbox:p1', replacesEmailId: 'd1' })
    expect(draft.replyAll).toBeUndefined()
  })

  it('forwards with no recipient under "Fwd:"', () => {
    const draft = forwardDraft(original)
    expect(draft).toMatchObject({ to: '', subject: 'Fwd: Lunch plans' })
    expect(draft.body).toContain('-------- Forwarded Message --------\nFrom: Alice <alice@example.org>')
  })
})
