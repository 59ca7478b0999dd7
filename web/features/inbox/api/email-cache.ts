// Optimistic changes to the cached lists and messages (star, read and delete change what
// the reader sees at once). Each change answers a function that puts back what it replaced.
import type { QueryClient, QueryKey } from '@tanstack/react-query'
import type { EmailDetailView, EmailListView } from '../../../../shared/email-schemas.ts'
import { emailQueryKey } from './get-email.ts'
import { emailListsKey, type EmailsPage } from './get-emails.ts'

export type EmailFlags = Partial<Pick<EmailListView, 'isRead' | 'isStarred'>>
type Restore = () => void

function snapshot(client: QueryClient, keys: QueryKey[]): Restore {
  const saved = keys.flatMap((key) => client.getQueriesData({ queryKey: key }))
  return () => {
    for (const [key, data] of saved) client.setQueryData(key, data)
  }
}

const detailKey = ['email'] as const

/**
 * The reads that would land over a change are dropped first: the lists', and those of the changed
 * messages. Other messages' reads go on: cancelled, the page asked for them again (opening an
 * unread conversation fetched its other messages twice, the read mark landing while they loaded).
 */
function cancelReads(client: QueryClient, lists: QueryKey, ids: ReadonlySet<string>) {
  return Promise.all([client.cancelQueries({ queryKey: lists }), ...[...ids].map((id) => client.cancelQueries({ queryKey: emailQueryKey(id) }))])
}

/** Applies flags to every cached copy of the messages. */
export async function patchCachedEmails(client: QueryClient, userId: string, ids: ReadonlySet<string>, flags: EmailFlags): Promise<Restore> {
  const lists = emailListsKey(userId)
  await cancelReads(client, lists, ids)
  const restore = snapshot(client, [lists, detailKey])
  const patch = <T extends EmailListView>(e: T): T => (ids.has(e.id) ? { ...e, ...flags } : e)
  client.setQueriesData<EmailsPage>({ queryKey: lists }, (old) => old && { ...old, emails: old.emails.map(patch) })
  client.setQueriesData<EmailDetailView>({ queryKey: detailKey }, (old) => old && { ...patch(old), conversationEmails: old.conversationEmails.map(patch) })
  return restore
}

/** A page without the messages; a conversation left with none is one fewer in the total. */
export function withoutEmails(page: EmailsPage, ids: ReadonlySet<string>): EmailsPage {
  const threads = (list: EmailListView[]) => new Set(list.map((e) => e.threadId)).size
  const emails = page.emails.filter((e) => !ids.has(e.id))
  const gone = threads(page.emails) - threads(emails)
  return { emails, ...(page.conversations === undefined ? {} : { conversations: Math.max(0, page.conversations - gone) }) }
}

/** Takes the messages out of every cached list and conversation. */
export async function removeCachedEmails(client: QueryClient, userId: string, ids: ReadonlySet<string>): Promise<Restore> {
  const lists = emailListsKey(userId)
  await cancelReads(client, lists, ids)
  const restore = snapshot(client, [lists, detailKey])
  client.setQueriesData<EmailsPage>({ queryKey: lists }, (old) => old && withoutEmails(old, ids))
  client.setQueriesData<EmailDetailView>({ queryKey: detailKey }, (old) => old && { ...old, conversationEmails: old.conversationEmails.filter((e) => !ids.has(e.id)) })
  return restore
}
