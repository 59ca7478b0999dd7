import type { EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDeleteEncryptionKey } from '../api/delete-encryption-key.ts'

interface DeleteKeyDialogProps {
  userId: string
  encryptionKey: EncryptionKeyView | undefined
  onOpenChange: (open: boolean) => void
}

/** "Delete Encryption Key": permanent, with a warning to download the keys first. */
export function DeleteKeyDialog({ userId, encryptionKey, onOpenChange }: DeleteKeyDialogProps) {
  const deletion = useDeleteEncryptionKey(userId)
  return (
    <ConfirmDialog
      open={Boolean(encryptionKey)}
      onOpenChange={onOpenChange}
      title="Delete Encryption Key"
      description={
        <>
          This permanently deletes {encryptionKey ? <strong>"{encryptionKey.keyName}"</strong> : 'this key'}. Messages
          encrypted to it can no longer be decrypted with Veilmail. Download your keys first if you may still need them.
          {encryptionKey?.isDefault && ' Your newest other key becomes the default.'}
        </>
      }
      confirmLabel="Delete Key"
      pendingLabel="Deleting..."
      pending={deletion.isPending}
      onConfirm={() =>
        encryptionKey &&
        deletion.mutate(encryptionKey.id, {
          onSuccess: () => {
            onOpenChange(false)
            toast({ title: 'Key deleted', description: `"${encryptionKey.keyName}" was deleted.` })
          },
          onError: (error) => toast({ title: 'Deletion failed', description: errorMessage(error, 'Failed to delete encryption key'), variant: 'destructive' }),
        })
      }
    />
  )
}
