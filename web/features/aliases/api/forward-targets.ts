import { useQuery } from '@tanstack/react-query'
import type { ForwardTargetView } from '../../../../shared/alias-schemas.ts'
import { apiGet, apiRequest } from '../../../lib/api-client.ts'
import { aliasesQueryKey } from './get-aliases.ts'

/** Under the aliases key, so every alias mutation (which may add targets) refreshes it too. */
export const forwardTargetsQueryKey = (userId: string) => [...aliasesQueryKey(userId), 'forward-targets'] as const

/** The user's e-mail targets: confirmed or not, and how many forwards each holds. */
export function useForwardTargets(userId: string) {
  return useQuery({
    queryKey: forwardTargetsQueryKey(userId),
    queryFn: async () => new Map((await apiGet<{ targets: ForwardTargetView[] }>('/api/forward-targets')).targets.map((t) => [t.email, t])),
  })
}

export const resendTargetConfirmation = (email: string) => apiRequest<{ message: string }>('POST', '/api/forward-targets/resend', { email })

/** Issue 30: a test mail to the target now; when the relay takes it, a stop for its bounces is lifted. */
export const sendTargetTestMail = (email: string) => apiRequest<{ message: string; delivered: boolean }>('POST', '/api/forward-targets/test', { email })

/** Issue 30: forwards to a target stopped for its bounces go again (its held forwards leave). */
export const reenableTarget = (email: string) => apiRequest<{ message: string }>('POST', '/api/forward-targets/enable', { email })
