import { describe, expect, it } from 'vitest'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { fromFields, replySender, senderChoices, senderMailboxes } from './senders.ts'

const provider = (id: string, email: string, smtp: EmailProviderView['smtp']) => ({ id, email, smtp }) as EmailProviderView
const gmail = provider('p1', 'Me@Gmail.com', { host: 'smtp.gmail.com', port: 465, security: 'tls', preset: true, username: null })
const custom = provider('p2', 'me@example.org', null)

describe('compose senders', () => {
  it('offers the mailboxes whose SMTP server is set up, before the aliases', () => {
    const mailboxes = senderMailboxes([gmail, custom])
    expect(mailboxes).toEqual([{ id: 'mailbox:p1', address: 'Me@Gmail.com', mailbox: true }])
    expect(senderChoices(mailboxes, [{ id: 'a1', address: 'x@veilmail.test' }]).map((s) => s.address)).toEqual(['Me@Gmail.com', 'x@veilmail.test'])
    expect(senderMailboxes(undefined)).toEqual([])
  })

  it('turns the choice into the request field', () => {
    expect(fromFields('mailbox:p1')).toEqual({ fromProviderId: 'p1' })
    expect(fromFields('a1')).toEqual({ fromAliasId: 'a1' })
  })

  it('answers from the mailbox only mail that was addressed to it, never mail an alias forwarded there', () => {
    const mailboxes = senderMailboxes([gmail])
    expect(replySender(mailboxes, { providerId: 'p1', to: 'Friend <friend@x.org>, "Me" <me@gmail.com>' })).toBe('mailbox:p1')
    expect(replySender(mailboxes, { providerId: 'p1', to: 'shop.alias@veilmail.test' })).toBeUndefined()
    expect(replySender(mailboxes, { providerId: 'p1', to: 'notme@gmail.com.evil.example' })).toBeUndefined()
    expect(replySender(mailboxes, { providerId: 'p2', to: 'me@example.org' })).toBeUndefined()
    expect(replySender(mailboxes, undefined)).toBeUndefined()
  })
})
