import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import type { AliasRowState } from './use-alias-row.ts'

export function DeleteAliasDialog({ row, address }: { row: AliasRowState; address: string }) {
  return (
    <ConfirmDialog
      open={row.confirmingDelete}
      onOpenChange={row.setConfirmingDelete}
      title="Delete this alias?"
      description={
        <>
          <span className="font-mono font-medium text-foreground">{address}</span> stops working at once: mail sent to it
          is refused, and the address can never be registered again.
        </>
      }
      confirmLabel="Delete Alias"
      pendingLabel="Deleting..."
      pending={row.deleting}
      onConfirm={row.confirmDelete}
    />
  )
}
