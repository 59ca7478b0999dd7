import { useCallback, useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router-dom'
import { BookOpen } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useAuthProviders } from '../../../lib/auth-providers.ts'
import type { CreatedEmailProvider } from '../api/create-email-provider.ts'
import { emailProvidersKey, useEmailProviders } from '../../../lib/email-providers.ts'
import { providersPollInterval } from '../lib/account-status.ts'
import { readOutlookReturn, withoutOutlookReturn } from '../lib/outlook-return.ts'
import { AddAccountForm } from './add-account-form.tsx'
import { ConnectedAccounts } from './connected-accounts.tsx'
import { SyncJobWatcher, type TrackedSyncJob } from './sync-job-watcher.tsx'

export const MAILBOX_SETUP_GUIDE_URL = 'https://github.com/veilmail/veilmail#connecting-a-mailbox'

/** "IMAP Account Settings" (README "Connecting a mailbox"): add an account, follow its syncs, remove it. */
export function MailboxSettings() {
  const queryClient = useQueryClient()
  const providers = useEmailProviders(providersPollInterval)
  const outlookEnabled = useAuthProviders().data?.microsoft === true
  const [tracked, setTracked] = useState<TrackedSyncJob[]>([])
  const [searchParams, setSearchParams] = useSearchParams()
  const emailRef = useRef<HTMLInputElement>(null)
  const formRef = useRef<HTMLDivElement>(null)

  const track = useCallback((job: TrackedSyncJob) => {
    setTracked((jobs) => (jobs.some((j) => j.jobId === job.jobId) ? jobs : [...jobs.filter((j) => j.providerId !== job.providerId), job]))
  }, [])
  const finished = useCallback((job: TrackedSyncJob) => setTracked((jobs) => jobs.filter((j) => j.jobId !== job.jobId)), [])

  // Back from Microsoft sign-in (README "Outlook (OAuth2)": `?status=…&providerId=…&jobId=…`): announce once, clear the address.
  const handledReturn = useRef('')
  useEffect(() => {
    const outlookReturn = readOutlookReturn(searchParams)
    if (!outlookReturn || handledReturn.current === searchParams.toString()) return
    handledReturn.current = searchParams.toString()
    setSearchParams(withoutOutlookReturn(searchParams), { replace: true })
    if (outlookReturn.status === 'failure') {
      toast({ title: 'Connection Failed', description: outlookReturn.description, variant: 'destructive' })
      return
    }
    toast({ title: 'Outlook Connected', description: 'Your Outlook account has been connected successfully.' })
    void queryClient.invalidateQueries({ queryKey: emailProvidersKey })
    if (outlookReturn.providerId && outlookReturn.jobId) track({ providerId: outlookReturn.providerId, jobId: outlookReturn.jobId, purpose: 'sync' })
  }, [searchParams, setSearchParams, queryClient, track])

  function handleAdded(created: CreatedEmailProvider) {
    track({ providerId: created.provider.id, jobId: created.jobId, purpose: 'connect' })
  }

  function addFirst() {
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    emailRef.current?.focus({ preventScroll: true })
  }

  return (
    <div className="grid gap-6">
      <Card ref={formRef}>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Add Email Account</CardTitle>
            <CardDescription className="max-w-2xl">
              Veilmail logs in to your mailbox over IMAP and copies its mail here. Your password is stored encrypted and never
              shown again.
            </CardDescription>
          </div>
          <a href={MAILBOX_SETUP_GUIDE_URL} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline">
            <BookOpen className="size-4" aria-hidden="true" />
            Setup Guide
          </a>
        </CardHeader>
        <CardContent>
          <AddAccountForm outlookEnabled={outlookEnabled} onAdded={handleAdded} emailRef={emailRef} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Connected Accounts</CardTitle>
        </CardHeader>
        <CardContent>
          <ConnectedAccounts
            providers={providers.data}
            loading={providers.isPending}
            loadError={providers.error}
            tracked={tracked}
            onTrack={track}
            onAddFirst={addFirst}
          />
        </CardContent>
      </Card>
      {tracked.map((job) => (
        <SyncJobWatcher key={job.jobId} job={job} onFinished={finished} />
      ))}
    </div>
  )
}
