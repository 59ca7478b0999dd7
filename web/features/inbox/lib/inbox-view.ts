// Which list the inbox shows lives in the address (/inbox?account=…&folder=…&category=…&page=…&q=…), so Back,
// reload and a shared link land on the same page, and a message opened from it returns to it.
import { MAX_QUERY_CHARS } from '../../../../shared/mail-search-query.ts'

export type InboxCategory = 'inbox' | 'unread' | 'starred'

export interface InboxView {
  /** a connected account's id, or "all" (the unified inbox) */
  account: string
  category: InboxCategory
  /** one synced folder of the account (its id), or every enabled folder when absent */
  folder?: string
  /** 0-based page of PAGE_SIZE */
  page: number
  /** the search box's query (shared/mail-search-query.ts): only the mail it matches */
  q?: string
}

export const PAGE_SIZE = 50
/** the unread category fetches up to 200 from offset 0 and is not paged, so it holds every unread conversation */
export const UNREAD_FETCH = 200

const CATEGORIES: readonly InboxCategory[] = ['inbox', 'unread', 'starred']
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function readInboxView(params: URLSearchParams): InboxView {
  const category = CATEGORIES.find((c) => c === params.get('category')) ?? 'inbox'
  const page = Number(params.get('page'))
  const folder = params.get('folder')
  const q = params.get('q')?.trim().slice(0, MAX_QUERY_CHARS)
  return {
    account: params.get('account') || 'all', category, page: category !== 'unread' && Number.isInteger(page) && page > 0 ? page : 0,
    ...(folder && ID.test(folder) ? { folder } : {}),
    ...(q ? { q } : {}),
  }
}

/** The search string of a view; defaults are left out. */
export function inboxSearch(view: InboxView): string {
  const params = new URLSearchParams()
  if (view.account !== 'all') params.set('account', view.account)
  if (view.folder) params.set('folder', view.folder)
  if (view.category !== 'inbox') params.set('category', view.category)
  if (view.page > 0) params.set('page', String(view.page))
  if (view.q) params.set('q', view.q)
  const search = params.toString()
  return search ? `?${search}` : ''
}

/** A folder as the sidebar and the list's heading name it: INBOX as "Inbox", others by their path. */
export function folderName(path: string): string {
  return path.toUpperCase() === 'INBOX' ? 'Inbox' : path
}
