// Which list the inbox shows lives in the address (/inbox?account=…&category=…&page=…), so Back,
// reload and a shared link land on the same page, and a message opened from it returns to it.
export type InboxCategory = 'inbox' | 'unread' | 'starred'

export interface InboxView {
  /** a connected account's id, or "all" (the unified inbox) */
  account: string
  category: InboxCategory
  /** 0-based page of PAGE_SIZE */
  page: number
}

export const PAGE_SIZE = 50
/** the unread category fetches up to 200 from offset 0 and is not paged, so it holds every unread conversation */
export const UNREAD_FETCH = 200

const CATEGORIES: readonly InboxCategory[] = ['inbox', 'unread', 'starred']

export function readInboxView(params: URLSearchParams): InboxView {
  const category = CATEGORIES.find((c) => c === params.get('category')) ?? 'inbox'
  const page = Number(params.get('page'))
  return { account: params.get('account') || 'all', category, page: category !== 'unread' && Number.isInteger(page) && page > 0 ? page : 0 }
}

/** The search string of a view; defaults are left out. */
export function inboxSearch(view: InboxView): string {
  const params = new URLSearchParams()
  if (view.account !== 'all') params.set('account', view.account)
  if (view.category !== 'inbox') params.set('category', view.category)
  if (view.page > 0) params.set('page', String(view.page))
  const search = params.toString()
  return search ? `?${search}` : ''
}
