import { Inbox, Plus } from 'lucide-react'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDeleteEmailProvider } from '../api/delete-email-provider.ts'
import { useSyncEmailProvider } from '../api/sync-email-provider.ts'
import { useUpdateFolder } from '../api/update-folder.ts'
import { AccountCard } from './account-card.tsx'
import type { TrackedSyncJob } from './sync-job-watcher.tsx'

interface ConnectedAccountsProps {
  providers: EmailProviderView[] | undefined
  loading: boolean
  loadError: unknown
  tracked: TrackedSyncJob[]
  onTrack: (job: TrackedSyncJob) => void
  onAddFirst: () => void
}

/** The connected accounts on /inbox/settings (README "Connecting a mailbox"), with an empty state. */
export function ConnectedAccounts({ providers, loading, loadError, tracked, onTrack, onAddFirst }: ConnectedAccountsProps) {
  const sync = useSyncEmailProvider()
  const removal = useDeleteEmailProvider()
  const folderChange = useUpdateFolder()

  // a folder turned on is synced at once, and its sync followed like a Sync press
  function handleFolderChange(providerId: string, path: string, name: string, enabled: boolean) {
    folderChange.mutate({ providerId, path, enabled }, {
      onSuccess: ({ jobId }) => {
        toast({
          title: enabled ? `${name} will be synced` : `${name} is no longer synced`,
          description: enabled ? 'Its mail appears in your inbox after the sync.' : 'Its mail was removed from Veilmail; nothing changed on the mail server.',
        })
        if (jobId) onTrack({ providerId, jobId, purpose: 'sync' })
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to update folder', description: errorMessage(error, 'The folder could not be changed.') }),
    })
  }

  function handleSync(providerId: string) {
    sync.mutate(providerId, {
      onSuccess: ({ jobId }) => onTrack({ providerId, jobId, purpose: 'sync' }),
      onError: (error) => toast({ title: 'Sync failed', description: errorMessage(error, 'The sync could not be started.'), variant: 'destructive' }),
    })
  }

  async function handleDelete(providerId: string) {
    try {
      await removal.mutateAsync(providerId)
      toast({ title: 'Email account removed', description: 'The account and the mail synced from it were removed.' })
    } catch (error) {
      toast({ title: 'Failed to remove email account', description: errorMessage(error, 'The account could not be removed.'), variant: 'destructive' })
    }
  }

  if (loading) {
    return (
      <div className="flex items-center justify-center gap-3 py-10 text-sm text-muted-foreground">
        <Spinner decorative />
        Loading accounts...
      </div>
    )
  }
  if (loadError || !providers) {
    return <p role="alert" className="py-10 text-center text-sm text-destructive">{errorMessage(loadError, 'Failed to load your email accounts')}</p>
  }
  if (providers.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
        <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">No email accounts connected yet.</p>
        <Button variant="outline" onClick={onAddFirst}>
          <Plus aria-hidden="true" />
          Add Your First Account
        </Button>
      </div>
    )
  }
  return (
    <ul className="grid gap-3" aria-label="Connected accounts">
      {providers.map((p) => (
        <AccountCard
          key={p.id}
          provider={p}
          syncBusy={(sync.isPending && sync.variables === p.id) || tracked.some((t) => t.providerId === p.id)}
          onSync={() => handleSync(p.id)}
          onDelete={() => handleDelete(p.id)}
          deleting={removal.isPending && removal.variables === p.id}
          onFolderChange={(path, name, enabled) => handleFolderChange(p.id, path, name, enabled)}
          folderBusy={folderChange.isPending && folderChange.variables?.providerId === p.id}
          onEdited={({ jobId }) => onTrack({ providerId: p.id, jobId, purpose: 'reconnect' })}
        />
      ))}
    </ul>
  )
}
