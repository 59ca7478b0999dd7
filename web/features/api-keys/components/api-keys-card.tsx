import { useState, type FormEvent } from 'react'
import { KeySquare } from 'lucide-react'
import { API_KEY_NAME_MAX, MAX_API_KEYS, type ApiKeyView, type CreatedApiKey } from '../../../../shared/api-key-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useCreateApiKey } from '../api/create-api-key.ts'
import { useApiKeys } from '../api/get-api-keys.ts'
import { useRevokeApiKey } from '../api/revoke-api-key.ts'
import { ApiKeyItem } from './api-key-item.tsx'
import { NewApiKeyNotice } from './new-api-key-notice.tsx'

/** Settings: API keys for password managers and browser extensions (issue 28). */
export function ApiKeysCard({ userId }: { userId: string }) {
  const keys = useApiKeys()
  const creation = useCreateApiKey()
  const revocation = useRevokeApiKey()
  const [name, setName] = useState('')
  const [created, setCreated] = useState<CreatedApiKey>()
  const [revoking, setRevoking] = useState<ApiKeyView>()

  function handleCreate(event: FormEvent) {
    event.preventDefault()
    creation.mutate(name, {
      onSuccess: (apiKey) => {
        setCreated(apiKey)
        setName('')
      },
      onError: (error) => toast({ title: 'Creation failed', description: errorMessage(error, 'Failed to create the API key'), variant: 'destructive' }),
    })
  }

  return (
    <Card data-testid="api-keys-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <KeySquare className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>API keys</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          Keys let your password manager or a browser extension create aliases for you (Bitwarden, the SimpleLogin and
          addy.io extensions; see the README). A key can manage your aliases and nothing else. At most {MAX_API_KEYS} keys.
        </CardDescription>
        <p className="text-xs text-muted-foreground">
          Your user id, for scripts calling <code className="font-mono">/api/aliases/{'{userId}'}</code>:{' '}
          <code className="font-mono" data-testid="api-user-id">{userId}</code>
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={handleCreate} className="flex flex-wrap items-end gap-3">
          <div className="grid min-w-56 flex-1 gap-1.5">
            <Label htmlFor="api-key-name">Name</Label>
            <Input id="api-key-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={API_KEY_NAME_MAX} placeholder="Bitwarden on my laptop" required />
          </div>
          <Button type="submit" disabled={creation.isPending || !name.trim()}>
            {creation.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </form>
        {created && <NewApiKeyNotice apiKey={created} onDone={() => setCreated(undefined)} />}
        {keys.isPending ? (
          <div className="flex items-center justify-center gap-3 py-6 text-sm text-muted-foreground">
            <Spinner decorative />
            Loading API keys...
          </div>
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(keys.error, 'Failed to load API keys')}</p>
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No API keys yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="API keys">
            {keys.data.map((apiKey) => <ApiKeyItem key={apiKey.id} apiKey={apiKey} onRevoke={() => setRevoking(apiKey)} />)}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={Boolean(revoking)}
        onOpenChange={(open) => !open && setRevoking(undefined)}
        title="Revoke API key"
        description={<>Apps using {revoking ? <strong>"{revoking.name}"</strong> : 'this key'} stop working at once. Aliases they made stay.</>}
        confirmLabel="Revoke key"
        pendingLabel="Revoking..."
        pending={revocation.isPending}
        onConfirm={() =>
          revoking &&
          revocation.mutate(revoking.id, {
            onSuccess: () => {
              setRevoking(undefined)
              toast({ title: 'Key revoked', description: `"${revoking.name}" no longer works.` })
            },
            onError: (error) => toast({ title: 'Revoke failed', description: errorMessage(error, 'Failed to revoke the API key'), variant: 'destructive' }),
          })
        }
      />
    </Card>
  )
}
