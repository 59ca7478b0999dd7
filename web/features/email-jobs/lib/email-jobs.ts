// The app's one job tracker: any page that queues mail hands its job here, and any component
// can ask whether a job is still being delivered (the inbox dialog's "Delivering...").
import { useSyncExternalStore } from 'react'
import { toast } from '../../../components/ui/use-toast.ts'
import { getEmailJobStatus } from '../api/get-email-job-status.ts'
import { createEmailJobTracker, type TrackedEmailJob } from './email-job-tracker.ts'

export const emailJobs = createEmailJobTracker({ getStatus: getEmailJobStatus, notify: toast })

export function useTrackedEmailJobs(): readonly TrackedEmailJob[] {
  return useSyncExternalStore(emailJobs.subscribe, emailJobs.getSnapshot, emailJobs.getSnapshot)
}

export function useEmailJobsInProgress(): boolean {
  return useTrackedEmailJobs().length > 0
}
