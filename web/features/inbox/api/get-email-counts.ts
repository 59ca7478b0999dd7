import { useQuery } from '@tanstack/react-query'
import type { EmailCountsView } from '../../../../shared/email-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const emailCountsKey = (userId: string) => ['email-counts', userId] as const

/** Unread, starred, total and stored bytes, for every account or one. */
export function getEmailCounts(account: string): Promise<EmailCountsView> {
  return apiGet<EmailCountsView>(`/api/emails/counts?providerId=${encodeURIComponent(account)}`)
}

export function useEmailCounts(userId: string | undefined, account: string) {
  return useQuery({ queryKey: [...emailCountsKey(userId ?? ''), account], queryFn: () => getEmailCounts(account), enabled: Boolean(userId) })
}
