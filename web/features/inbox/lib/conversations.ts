// Conversations on a page of the list: the server gives each message its
// thread (the References / In-Reply-To chain, the subject rule only when headers are missing); the
// list shows one row per thread, newest first, as the latest message with the count.
import type { EmailListView } from '../../../../shared/email-schemas.ts'

export interface Conversation {
  threadId: string
  latestEmail: EmailListView
  /** oldest first */
  emails: EmailListView[]
  unreadCount: number
  totalCount: number
}

export function groupConversations(emails: readonly EmailListView[]): Conversation[] {
  const byThread = new Map<string, EmailListView[]>()
  for (const email of emails) {
    const list = byThread.get(email.threadId)
    if (list) list.push(email)
    else byThread.set(email.threadId, [email])
  }
  const time = (e: EmailListView) => Date.parse(e.receivedAt)
  return [...byThread.entries()]
    .map(([threadId, list]) => {
      const sorted = [...list].sort((a, b) => time(a) - time(b))
      return {
        threadId, emails: sorted, latestEmail: sorted[sorted.length - 1],
        unreadCount: sorted.filter((e) => !e.isRead).length, totalCount: sorted.length,
      }
    })
    .sort((a, b) => time(b.latestEmail) - time(a.latestEmail))
}

/** The sender as the row shows it: the display name when there is one, else the local part, with "(count)" for a conversation. */
export function senderLabel(conversation: Pick<Conversation, 'latestEmail' | 'totalCount'>): string {
  const { fromName, fromAddress } = conversation.latestEmail
  const name = fromName.trim() || fromAddress.split('@')[0] || '(unknown sender)'
  return conversation.totalCount > 1 ? `${name} (${conversation.totalCount})` : name
}

/** Initially expanded in a conversation: the newest message and every unread one. */
export function initiallyExpanded(emails: readonly EmailListView[]): Set<string> {
  const open = new Set(emails.filter((e) => !e.isRead).map((e) => e.id))
  const newest = emails[emails.length - 1]
  if (newest) open.add(newest.id)
  return open
}

/** Two letters for the avatar: from the display name, else the address. */
export function initials(name: string, address: string): string {
  const words = (name || address.split('@')[0]).split(/[\s._-]+/).filter(Boolean)
  const letters = words.length > 1 ? words[0][0] + words[1][0] : (words[0] ?? '?').slice(0, 2)
  return letters.toUpperCase()
}

/** "x-y of total" for a page of 50. */
export function pageRange(page: number, pageSize: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return `0 of ${total}`
  const first = page * pageSize + 1
  return `${first}-${first + shown - 1} of ${total}`
}
