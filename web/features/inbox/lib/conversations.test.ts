import { describe, expect, it } from 'vitest'
import type { EmailListView } from '../../../../shared/email-schemas.ts'
import { groupConversations, initiallyExpanded, initials, pageRange, senderLabel } from './conversations.ts'

const email = (id: string, threadId: string, minute: number, over: Partial<EmailListView> = {}): EmailListView => ({
  id, threadId, providerId: 'p', folderId: 'f', messageId: `<${id}@x>`, subject: `s-${threadId}`, fromAddress: `${id}@sender.example`, fromName: '',
  toAddress: 'me@example.com', receivedAt: new Date(Date.UTC(2026, 10, 1, 10, minute)).toISOString(), size: 100, isRead: true,
  isStarred: false, hasAttachments: false, preview: '', ...over,
})

describe('groupConversations', () => {
  it('shows one row per thread, newest thread first, each oldest message first with its counts', () => {
    const page = [email('c', 't1', 30, { isRead: false }), email('x', 't2', 20), email('a', 't1', 5), email('b', 't1', 10, { isRead: false })]
    const conversations = groupConversations(page)
    expect(conversations.map((c) => c.threadId)).toEqual(['t1', 't2'])
    expect(conversations[0].emails.map((e) => e.id)).toEqual(['a', 'b', 'c'])
    expect(conversations[0]).toMatchObject({ latestEmail: { id: 'c' }, totalCount: 3, unreadCount: 2 })
    expect(conversations[1]).toMatchObject({ latestEmail: { id: 'x' }, totalCount: 1, unreadCount: 0 })
  })

  it('labels the sender by local part, with the count for a conversation', () => {
    const [one] = groupConversations([email('alice', 't', 1)])
    expect(senderLabel(one)).toBe('alice')
    const [three] = groupConversations([email('a', 't', 1), email('b', 't', 2), email('bob', 't', 3)])
    expect(senderLabel(three)).toBe('bob (3)')
    // a display name, when the sender gave one
    const [named] = groupConversations([email('a', 't', 1), email('c', 't', 2, { fromName: 'Carol Jones' })])
    expect(senderLabel(named)).toBe('Carol Jones (2)')
    const [blank] = groupConversations([email('dan', 'u', 1, { fromName: '   ' })])
    expect(senderLabel(blank)).toBe('dan')
  })
})

describe('a conversation on screen', () => {
  it('opens the newest message and every unread one', () => {
    const emails = [email('a', 't', 1), email('b', 't', 2, { isRead: false }), email('c', 't', 3), email('d', 't', 4)]
    expect([...initiallyExpanded(emails)].sort()).toEqual(['b', 'd'])
  })

  it('makes avatar initials from the name, else the address', () => {
    expect(initials('Ada Lovelace', 'ada@x.example')).toBe('AL')
    expect(initials('', 'grace.hopper@x.example')).toBe('GH')
    expect(initials('', 'root@x.example')).toBe('RO')
  })

  it('writes the page range as "x-y of total" with 50 a page', () => {
    expect(pageRange(0, 50, 50, 120)).toBe('1-50 of 120')
    expect(pageRange(2, 50, 20, 120)).toBe('101-120 of 120')
    expect(pageRange(0, 50, 0, 0)).toBe('0 of 0')
  })
})
