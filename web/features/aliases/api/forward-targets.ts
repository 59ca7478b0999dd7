import { useQuery } from '@tanstack/react-query'
import type { ForwardTargetView, TargetTestMailView } from '../../../../shared/alias-schemas.ts'
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

/** Issue 30: a test mail to the target, queued for the delivery process; when the relay takes it, a stop for its bounces is lifted. */
export const sendTargetTestMail = (email: string) => apiRequest<{ jobId: string; statusUrl: string; message: string }>('POST', '/api/forward-targets/test', { email })

/** While a test mail is with the delivery process (one try, seconds): its status every 2 s, then none (also once the server says it is still queued). */
export const TEST_MAIL_POLL_MS = 2_000

/** The test mail's outcome, polled while it is sending; undefined jobId asks nothing. */
export function useTargetTestMail(jobId: string | undefined) {
  return useQuery({
    queryKey: ['forward-target-test-mails', jobId],
    queryFn: () => apiGet<TargetTestMailView>(`/api/forward-targets/test/${jobId}`),
    enabled: jobId !== undefined,
    refetchInterval: (query) => (query.state.status === 'error' || (query.state.data && query.state.data.status !== 'sending') ? false : TEST_MAIL_POLL_MS),
  })
}

/** Issue 30: forwards to a target stopped for its bounces go again (its held forwards leave). */
export const reenableTarget = (email: string) => apiRequest<{ message: string }>('POST', '/api/forward-targets/enable', { email })
