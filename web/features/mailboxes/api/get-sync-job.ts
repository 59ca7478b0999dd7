import { useQuery } from '@tanstack/react-query'
import { getSyncJob } from '../../../lib/email-providers.ts'
import { syncJobPollInterval } from '../lib/account-status.ts'

export const syncJobQueryKey = (providerId: string, jobId: string) => ['email-provider-sync-jobs', providerId, jobId] as const

/** The job's status every 10 s until it is done or failed; a failed status call (the account is gone) stops it. */
export function useSyncJob(providerId: string, jobId: string) {
  return useQuery({
    queryKey: syncJobQueryKey(providerId, jobId),
    queryFn: () => getSyncJob(providerId, jobId),
    refetchInterval: (query) => (query.state.status === 'error' ? false : syncJobPollInterval(query.state.data)),
  })
}
