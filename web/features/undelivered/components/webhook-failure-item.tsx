import { useState } from 'react'
import { RotateCw, Trash2 } from 'lucide-react'
import type { WebhookFailureView } from '../../../../shared/undelivered-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDropWebhookDelivery } from '../api/drop-webhook-delivery.ts'
import { useRetryWebhookDelivery } from '../api/retry-webhook-delivery.ts'
import { webhookErrorText } from '../lib/webhook-error.ts'
import { AliasRoute } from './alias-route.tsx'

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })

/** One webhook delivery that keeps failing: when, where, why, the next try; Retry now or Drop. */
export function WebhookFailureItem({ failure }: { failure: WebhookFailureView }) {
  const [confirmingDrop, setConfirmingDrop] = useState(false)
  const retry = useRetryWebhookDelivery()
  const drop = useDropWebhookDelivery()

  function retryNow() {
    retry.mutate(failure.id, {
      onSuccess: () => toast({ title: 'Trying Again', description: `The message is being posted to ${failure.target} now.` }),
      onError: (error) => toast({ title: 'Retry Failed', description: errorMessage(error, 'Failed to try again'), variant: 'destructive' }),
    })
  }

  function dropIt() {
    drop.mutate(failure.id, {
      onSuccess: () => {
        setConfirmingDrop(false)
        toast({ title: 'Delivery Dropped', description: 'This message will not be posted to the webhook.' })
      },
      onError: (error) => toast({ title: 'Drop Failed', description: errorMessage(error, 'Failed to drop it'), variant: 'destructive' }),
    })
  }

  return (
    <li className="grid gap-2 rounded-lg border border-border p-4 sm:grid-cols-[1fr_auto] sm:items-start" data-testid="webhook-failure" data-id={failure.id}>
      <div className="grid min-w-0 gap-1">
        <AliasRoute alias={failure.alias} target={failure.target} />
        <p className="text-xs text-destructive" data-testid="webhook-failure-reason">
          {webhookErrorText(failure.lastError)}
        </p>
        <p className="text-xs text-muted-foreground">
          {failure.lastAttemptAt && (
            <>Last tried <time dateTime={failure.lastAttemptAt}>{formatDate(failure.lastAttemptAt)}</time> · </>
          )}
          {failure.attempts} {failure.attempts === 1 ? 'attempt' : 'attempts'} ·{' '}
          <span data-testid="webhook-next-retry">
            {failure.nextRetryAt ? (
              <>next try <time dateTime={failure.nextRetryAt}>{formatDate(failure.nextRetryAt)}</time></>
            ) : (
              'trying now'
            )}
          </span>
        </p>
      </div>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" onClick={retryNow} disabled={retry.isPending || !failure.nextRetryAt}>
          {retry.isPending ? <Spinner decorative /> : <RotateCw aria-hidden="true" />}
          Retry now
        </Button>
        <Button variant="outline" size="sm" onClick={() => setConfirmingDrop(true)} aria-label={`Drop webhook delivery for ${failure.alias}`}>
          <Trash2 aria-hidden="true" />
          Drop
        </Button>
      </div>
      <ConfirmDialog
        open={confirmingDrop}
        onOpenChange={setConfirmingDrop}
        title="Drop this webhook delivery?"
        description="The message is not posted to this webhook, now or later. Webhook deliveries keep no copy."
        confirmLabel="Drop"
        pendingLabel="Dropping..."
        pending={drop.isPending}
        onConfirm={dropIt}
      />
    </li>
  )
}
