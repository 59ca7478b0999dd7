import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SyncJobView } from '../../../../shared/email-provider-schemas.ts'
import { apiGet, apiRequest } from '../../../lib/api-client.ts'
import { useAuth } from '../../auth/components/auth-context.ts'
import { emailCountsKey } from './get-email-counts.ts'
import { emailListsKey } from './get-emails.ts'
import { emailProvidersKey } from './get-email-providers.ts'

const POLL_MS = 2000

/** Presses Sync for one account and waits for the sync process to finish the job. */
export async function syncAccount(providerId: string): Promise<SyncJobView> {
  const id = encodeURIComponent(providerId)
  const { jobId } = await apiRequest<{ jobId: string }>('POST', `/api/email-providers/${id}/sync`)
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const job = await apiGet<SyncJobView>(`/api/email-providers/${id}/sync-jobs/${encodeURIComponent(jobId)}`)
    if (job.status === 'done' || job.status === 'failed') return job
  }
}

/** Sync, then the lists, counts and storage stats are read again (spec §7). */
export function useSyncAccount() {
  const client = useQueryClient()
  const userId = useAuth().user?.id ?? ''
  return useMutation({
    mutationFn: syncAccount,
    onSettled: () => Promise.all([
      client.invalidateQueries({ queryKey: emailListsKey(userId) }),
      client.invalidateQueries({ queryKey: emailCountsKey(userId) }),
      client.invalidateQueries({ queryKey: emailProvidersKey(userId) }),
    ]),
  })
}
