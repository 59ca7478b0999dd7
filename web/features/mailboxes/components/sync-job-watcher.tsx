import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { toast } from '../../../components/ui/use-toast.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'
import { useSyncJob } from '../api/get-sync-job.ts'
import { invalidateMailQueries } from '../api/sync-email-provider.ts'
import { syncJobToast, type SyncJobPurpose } from '../lib/account-status.ts'

export interface TrackedSyncJob {
  providerId: string
  jobId: string
  purpose: SyncJobPurpose
}

/**
 * Polls one sync job (every 10 s), puts the account's progress it carries into the list, and
 * announces the outcome once. Renders nothing.
 */
export function SyncJobWatcher({ job, onFinished }: { job: TrackedSyncJob; onFinished: (job: TrackedSyncJob) => void }) {
  const queryClient = useQueryClient()
  const status = useSyncJob(job.providerId, job.jobId)
  const announced = useRef(false)
  const { data, isError } = status

  useEffect(() => {
    if (!data) return
    const provider = data.provider
    if (provider) {
      queryClient.setQueryData<EmailProviderView[]>(emailProvidersKey, (list) => list?.map((p) => (p.id === provider.id ? provider : p)))
    }
    const outcome = syncJobToast(job.purpose, data)
    if (!outcome || announced.current) return
    announced.current = true
    toast(outcome)
    void queryClient.invalidateQueries({ queryKey: emailProvidersKey })
    if (data.status === 'done') void invalidateMailQueries(queryClient)
    onFinished(job)
  }, [data, job, onFinished, queryClient])

  // a failed status call means the account was removed meanwhile: polling it again cannot succeed
  useEffect(() => {
    if (isError) onFinished(job)
  }, [isError, job, onFinished])

  return null
}
