import { useMutation, useQuery } from '@tanstack/react-query'
import type { LinkDetailsView } from '../../../../shared/sender-block-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** What the link would do; nothing changes by asking. */
export function useLinkDetails(token: string) {
  return useQuery({
    queryKey: ['unsubscribe-link', token],
    queryFn: async () => (await apiGet<{ link: LinkDetailsView }>(`/api/unsubscribe/${encodeURIComponent(token)}/details`)).link,
    retry: false,
  })
}

/** Uses the link: the same POST a mail client makes (RFC 8058), marked as coming from this page. */
export function useLink(token: string) {
  return useMutation({
    mutationFn: async () => {
      const res = await fetch(`/api/unsubscribe/${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Veilmail-Page': '1' },
        body: 'List-Unsubscribe=One-Click',
      })
      const body = (await res.json().catch(() => ({}))) as { message?: string }
      if (!res.ok) throw new Error(body.message || 'This link could not be used')
      return body as { message: string; action: 'pause' | 'block'; alias: string; contact: string | null }
    },
  })
}
