import { useState } from 'react'
import { Copy, Eye, EyeOff, KeyRound, RefreshCw } from 'lucide-react'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useWebhookSecret } from '../api/get-webhook-secret.ts'
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret.ts'
import { copyText } from '../../../lib/copy-text.ts'
import { hasWebhookTarget } from '../lib/alias-state.ts'

const MASK = 'whsec_' + '•'.repeat(24)

/** The per-alias secret that signs webhook deliveries; hidden until asked for. */
export function WebhookSecretPanel({ alias }: { alias: AliasView }) {
  const [revealed, setRevealed] = useState(false)
  const [confirmingRotate, setConfirmingRotate] = useState(false)
  const secret = useWebhookSecret(alias.id, revealed)
  const rotation = useRotateWebhookSecret(alias.id)
  const shown = revealed && secret.data

  function rotate() {
    rotation.mutate(undefined, {
      onSuccess: () => {
        setConfirmingRotate(false)
        setRevealed(true)
        toast({ title: 'Secret Rotated', description: 'Webhook deliveries are now signed with the new secret.' })
      },
      onError: (error) =>
        toast({ title: 'Rotation Failed', description: errorMessage(error, 'Failed to rotate the secret'), variant: 'destructive' }),
    })
  }

  return (
    <section aria-labelledby={`webhook-secret-${alias.id}`} className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4">
      <div className="flex items-center gap-2">
        <KeyRound aria-hidden="true" className="size-4 text-primary" />
        <h3 id={`webhook-secret-${alias.id}`} className="text-sm font-semibold">
          Webhook signing secret
        </h3>
      </div>
      <p className="max-w-3xl text-xs text-muted-foreground">
        Webhook deliveries are signed per Standard Webhooks: check the <code>webhook-signature</code> header, an
        HMAC-SHA256 of the <code>webhook-id</code>, <code>webhook-timestamp</code> and body, with this secret.
        {!hasWebhookTarget(alias) && ' It is used once this alias forwards to a webhook URL.'}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          className="w-full min-w-0 break-all rounded-md sm:w-auto sm:min-w-64 sm:flex-1 border border-border bg-card px-3 py-1.5 font-mono text-xs"
          data-testid="webhook-secret"
        >
          {shown ? secret.data : MASK}
        </code>
        <Button variant="outline" size="sm" onClick={() => setRevealed((open) => !open)} disabled={revealed && secret.isFetching}>
          {revealed && secret.isFetching ? <Spinner decorative /> : revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          {revealed ? 'Hide' : 'Reveal'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => shown && copyText(shown, 'Secret')} disabled={!shown}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
        <Button variant="outline" size="sm" onClick={() => setConfirmingRotate(true)}>
          <RefreshCw aria-hidden="true" />
          Rotate
        </Button>
      </div>
      {revealed && secret.isError && (
        <p role="alert" className="text-xs font-medium text-destructive">
          {errorMessage(secret.error, 'Failed to load the secret')}
        </p>
      )}
      <ConfirmDialog
        open={confirmingRotate}
        onOpenChange={setConfirmingRotate}
        title="Rotate the signing secret?"
        description="A new secret is generated and the current one stops working at once. Update your webhook receiver with the new secret right away, or it will reject deliveries."
        confirmLabel="Rotate Secret"
        pendingLabel="Rotating..."
        pending={rotation.isPending}
        onConfirm={rotate}
      />
    </section>
  )
}
