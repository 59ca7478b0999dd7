import { useState } from 'react'
import { RotateCw, Trash2 } from 'lucide-react'
import type { UndeliveredView } from '../../../../shared/undelivered-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDeleteUndelivered } from '../api/delete-undelivered.ts'
import { useRetryUndelivered } from '../api/retry-undelivered.ts'
import { AliasRoute } from './alias-route.tsx'

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })

/** One forward that failed for good: where it was going, why it failed, and what can be done. */
export function UndeliveredItem({ item }: { item: UndeliveredView }) {
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const retry = useRetryUndelivered()
  const removal = useDeleteUndelivered()
  const retrying = item.status === 'retrying' || retry.isPending

  function send() {
    retry.mutate(item.id, {
      onSuccess: () => toast({ title: 'Sending Again', description: `The encrypted copy is on its way to ${item.target}.` }),
      onError: (error) => toast({ title: 'Retry Failed', description: errorMessage(error, 'Failed to send it again'), variant: 'destructive' }),
    })
  }

  function remove() {
    removal.mutate(item.id, {
      onSuccess: () => {
        setConfirmingDelete(false)
        toast({ title: 'Message Deleted', description: 'The undelivered message was deleted.' })
      },
      onError: (error) => toast({ title: 'Deletion Failed', description: errorMessage(error, 'Failed to delete it'), variant: 'destructive' }),
    })
  }

  return (
    <li className="grid gap-2 rounded-lg border border-border p-4 sm:grid-cols-[1fr_auto] sm:items-start" data-testid="undelivered-item" data-id={item.id}>
      <div className="grid min-w-0 gap-1">
        <AliasRoute alias={item.alias} target={item.target} />
        <p className="text-xs break-words text-muted-foreground" data-testid="undelivered-reason">
          {item.reason}
        </p>
        <p className="text-xs text-muted-foreground">
          Failed <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
          {item.kept ? (
            <> · encrypted copy kept until <time dateTime={item.expiresAt}>{formatDate(item.expiresAt)}</time></>
          ) : item.kind === 'webhook' ? (
            ' · webhook deliveries keep no copy'
          ) : (
            ' · no copy kept (copies are kept only when you have an encryption key)'
          )}
        </p>
      </div>
      <div className="flex items-center gap-2">
        {item.kept && (
          <Button variant="outline" size="sm" onClick={send} disabled={retrying}>
            {retrying ? <Spinner decorative /> : <RotateCw aria-hidden="true" />}
            {retrying ? 'Sending...' : 'Retry'}
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={() => setConfirmingDelete(true)} aria-label={`Delete undelivered message to ${item.alias}`}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Delete this message?"
        description={item.kept ? 'Its encrypted copy is erased and cannot be sent again.' : 'The report of this failure is removed.'}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={removal.isPending}
        onConfirm={remove}
      />
    </li>
  )
}
