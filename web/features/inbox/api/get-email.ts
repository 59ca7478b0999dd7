import { useQuery } from '@tanstack/react-query'
import type { EmailDetailView } from '../../../../shared/email-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const emailQueryKey = (id: string) => ['email', id] as const

/** One message with its body, attachments and its conversation (oldest first). */
export async function getEmail(id: string): Promise<EmailDetailView> {
  return (await apiGet<{ email: EmailDetailView }>(emailUrl(id))).email
}

export const emailUrl = (id: string) => `/api/emails/${encodeURIComponent(id)}`

export function useEmail(id: string, enabled = true) {
  return useQuery({ queryKey: emailQueryKey(id), queryFn: () => getEmail(id), enabled })
}
