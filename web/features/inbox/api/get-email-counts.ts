import { useQuery } from '@tanstack/react-query'
import type { EmailCountsView } from '../../../../shared/email-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { fallbackPoll, useMailStreamLive } from './mail-events.ts'

export const emailCountsKey = (userId: string) => ['email-counts', userId] as const

/** Unread, starred, total and stored bytes, for every account, one, or one folder of one. */
export function getEmailCounts(account: string, folder?: string): Promise<EmailCountsView> {
  return apiGet<EmailCountsView>(emailCountsUrl(account, folder))
}

export function emailCountsUrl(account: string, folder?: string): string {
  const params = new URLSearchParams({ providerId: account })
  if (folder) params.set('folder', folder)
  return `/api/emails/counts?${params}`
}

export function useEmailCounts(userId: string | undefined, account: string, folder?: string) {
  const streaming = useMailStreamLive()
  return useQuery({
    queryKey: [...emailCountsKey(userId ?? ''), account, folder ?? 'all'], queryFn: () => getEmailCounts(account, folder), enabled: Boolean(userId),
    refetchInterval: fallbackPoll(streaming),
  })
}

/** The inbox tab's title: "Inbox (4)" while the user has unread mail. */
export function useInboxTitle(): string {
  const userId = useAuth().user?.id
  const unread = useEmailCounts(userId, 'all').data?.unread ?? 0
  return unread > 0 ? `Inbox (${unread})` : 'Inbox'
}
