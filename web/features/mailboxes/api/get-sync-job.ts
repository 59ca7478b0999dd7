import { useQuery } from '@tanstack/react-query'
import type { SyncJobView } from '../../../../shared/email-provider-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'
import { syncJobPollInterval } from '../lib/account-status.ts'

export const syncJobQueryKey = (providerId: string, jobId: string) => ['email-provider-sync-jobs', providerId, jobId] as const

export function getSyncJob(providerId: string, jobId: string): Promise<SyncJobView> {
  return apiGet<SyncJobView>(`/api/email-providers/${encodeURIComponent(providerId)}/sync-jobs/${encodeURIComponent(jobId)}`)
}

/** Spec §9: the job's status every 10 s until it is done or failed; a failed status call stops it (spec §4). */
export function useSyncJob(providerId: string, jobId: string) {
  return useQuery({
    queryKey: syncJobQueryKey(providerId, jobId),
    queryFn: () => getSyncJob(providerId, jobId),
    refetchInterval: (query) => (query.state.status === 'error' ? false : syncJobPollInterval(query.state.data)),
  })
}
