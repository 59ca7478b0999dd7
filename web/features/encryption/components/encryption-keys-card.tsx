import { useState } from 'react'
import { KeyRound, Plus } from 'lucide-react'
import type { EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useEncryptionKeys } from '../api/get-encryption-keys.ts'
import { useSetDefaultEncryptionKey } from '../api/set-default-encryption-key.ts'
import { CreateKeyDialog } from './create-key-dialog.tsx'
import { DeleteKeyDialog } from './delete-key-dialog.tsx'
import { DownloadKeyDialog } from './download-key-dialog.tsx'
import { KeyItem } from './key-item.tsx'

/** Settings: the Encryption Keys card with its list and dialogs. */
export function EncryptionKeysCard({ userId }: { userId: string }) {
  const keys = useEncryptionKeys(userId)
  const makeDefault = useSetDefaultEncryptionKey(userId)
  const [creating, setCreating] = useState(false)
  const [downloading, setDownloading] = useState<EncryptionKeyView>()
  const [deleting, setDeleting] = useState<EncryptionKeyView>()

  function handleMakeDefault(key: EncryptionKeyView) {
    makeDefault.mutate(key.id, {
      onSuccess: () => toast({ title: 'Default key changed', description: `"${key.keyName}" is now your default key.` }),
      onError: (error) => toast({ title: 'Update failed', description: errorMessage(error, 'Failed to change the default key'), variant: 'destructive' }),
    })
  }

  return (
    <Card data-testid="encryption-keys-card">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <div className="flex items-center gap-2">
            <KeyRound className="size-5 text-primary" aria-hidden="true" />
            <CardTitle>Encryption Keys</CardTitle>
          </div>
          <CardDescription className="max-w-2xl">
            age key pairs protected by your master password. Keys are generated and unlocked in this browser: your private
            keys and master password never leave it.
          </CardDescription>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          Create New Key
        </Button>
      </CardHeader>
      <CardContent>
        {keys.isPending ? (
          <div className="flex items-center justify-center gap-3 py-10 text-sm text-muted-foreground">
            <Spinner decorative />
            Loading keys...
          </div>
        ) : keys.isError ? (
          <p role="alert" className="py-10 text-center text-sm text-destructive">
            {errorMessage(keys.error, 'Failed to load encryption keys')}
          </p>
        ) : keys.data.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-12 text-center">
            <KeyRound className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No encryption keys</p>
            <p className="max-w-sm text-sm text-muted-foreground">Create your first encryption key to start receiving encrypted emails</p>
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Encryption keys">
            {keys.data.map((key) => (
              <KeyItem
                key={key.id}
                encryptionKey={key}
                onDownload={() => setDownloading(key)}
                onDelete={() => setDeleting(key)}
                onMakeDefault={() => handleMakeDefault(key)}
                makingDefault={makeDefault.isPending && makeDefault.variables === key.id}
              />
            ))}
          </ul>
        )}
      </CardContent>
      <CreateKeyDialog userId={userId} open={creating} onOpenChange={setCreating} />
      <DownloadKeyDialog encryptionKey={downloading} onOpenChange={(open) => !open && setDownloading(undefined)} />
      <DeleteKeyDialog userId={userId} encryptionKey={deleting} onOpenChange={(open) => !open && setDeleting(undefined)} />
    </Card>
  )
}
