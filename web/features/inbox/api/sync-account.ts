import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SyncJobView } from '../../../../shared/email-provider-schemas.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { refetchMail } from './each-email.ts'
import { emailProvidersKey, getSyncJob, syncEmailProvider } from '../../../lib/email-providers.ts'

const POLL_MS = 2000

/** Presses Sync for one account and waits for the sync process to finish the job. */
export async function syncAccount(providerId: string): Promise<SyncJobView> {
  const { jobId } = await syncEmailProvider(providerId)
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const job = await getSyncJob(providerId, jobId)
    if (job.status === 'done' || job.status === 'failed') return job
  }
}

/** Sync, then the lists, counts and storage stats are read again: the sync may have changed all of them. */
export function useSyncAccount() {
  const client = useQueryClient()
  const userId = useAuth().user?.id ?? ''
  return useMutation({
    mutationFn: syncAccount,
    onSettled: () => Promise.all([refetchMail(client, userId), client.invalidateQueries({ queryKey: emailProvidersKey })]),
  })
}
