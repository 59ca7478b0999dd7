import { useQuery } from '@tanstack/react-query'
import type { EmailListPage, EmailListView, UnsearchedAccountView } from '../../../../shared/email-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'
import { PAGE_SIZE, UNREAD_FETCH, type InboxView } from '../lib/inbox-view.ts'
import { fallbackPoll, useMailStreamLive } from './mail-events.ts'

/** Every list of the user; star, read, delete and sync refresh them all, as each can move a message between lists. */
export const emailListsKey = (userId: string) => ['emails', userId] as const
export const emailsQueryKey = (userId: string, view: Pick<InboxView, 'account' | 'folder' | 'category' | 'page' | 'q'>) =>
  [...emailListsKey(userId), view.account, view.folder ?? 'all', view.category, view.q ?? '', view.category === 'unread' ? 0 : view.page] as const

/** A list's messages and, when paged, how many conversations the whole list holds (the pager's total, or `more`: a search's, uncounted); a search's accounts left out. */
export interface EmailsPage { emails: EmailListView[]; conversations?: number; more?: boolean; unsearched?: UnsearchedAccountView[] }

/**
 * A page of 50 conversations, newest first, with their total (the rows and the pager count the same
 * unit); the unread category fetches up to 200 messages from the start, unpaged, so the category
 * holds every unread conversation.
 */
export async function getEmails(view: Pick<InboxView, 'account' | 'folder' | 'category' | 'page' | 'q'>): Promise<EmailsPage> {
  const page = await apiGet<EmailListPage>(emailsUrl(view))
  return { emails: page.emails, conversations: page.total, more: page.more, unsearched: page.unsearched }
}

/** The list's URL for a view (also read early, at start-up: web/app/page-preload.ts). */
export function emailsUrl(view: Pick<InboxView, 'account' | 'folder' | 'category' | 'page' | 'q'>): string {
  const unread = view.category === 'unread'
  const params = new URLSearchParams({
    providerId: view.account, category: view.category,
    limit: String(unread ? UNREAD_FETCH : PAGE_SIZE), offset: String(unread ? 0 : view.page * PAGE_SIZE),
  })
  if (!unread) params.set('by', 'conversation')
  if (view.folder) params.set('folder', view.folder)
  if (view.q) params.set('q', view.q)
  return `/api/emails?${params}`
}

/**
 * The rows kept on screen while a page loads: those of the page before when only the page turned,
 * none when the list is another (account, folder or category). Another list's rows would sit under
 * this list's counts and pager, and a bulk action could be taken on them.
 */
export function keepPageTurns<T>(previous: T | undefined, previousQuery: { queryKey: readonly unknown[] } | undefined, queryKey: readonly unknown[]): T | undefined {
  const list = (key: readonly unknown[]) => JSON.stringify(key.slice(0, -1))
  return previousQuery && list(previousQuery.queryKey) === list(queryKey) ? previous : undefined
}

export function useEmails(userId: string | undefined, view: InboxView) {
  const queryKey = emailsQueryKey(userId ?? '', view)
  const streaming = useMailStreamLive()
  return useQuery({
    queryKey, queryFn: () => getEmails(view), enabled: Boolean(userId), refetchInterval: fallbackPoll(streaming),
    placeholderData: (previous, previousQuery) => keepPageTurns(previous, previousQuery, queryKey),
  })
}
