import { useState } from 'react'
import { TriangleAlert, Trash2 } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDeleteAccount } from '../api/delete-account.ts'
import { DeleteAccountDialog } from './delete-account-dialog.tsx'

interface DeleteAccountCardProps {
  /** Called once the server has deleted the account (the toast is already shown). */
  onDeleted: () => void
}

export function DeleteAccountCard({ onDeleted }: DeleteAccountCardProps) {
  const [open, setOpen] = useState(false)
  const deletion = useDeleteAccount({
    onSuccess: () => {
      setOpen(false)
      toast({ title: 'Account Deleted', description: 'Your account and all its data are being erased.' })
      onDeleted()
    },
    onError: (error) => {
      toast({ title: 'Deletion Failed', description: errorMessage(error, 'Failed to delete account'), variant: 'destructive' })
    },
  })

  return (
    <Card className="border-destructive/40" data-testid="delete-account-card">
      <CardHeader>
        <div className="flex items-center gap-2 text-destructive">
          <TriangleAlert className="size-5" aria-hidden="true" />
          <CardTitle>Delete Account</CardTitle>
        </div>
        <CardDescription>
          Permanently delete your account. You are signed out everywhere, every alias stops working immediately, and all
          your data is erased within 30 days. This cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          <Trash2 aria-hidden="true" />
          Delete Account
        </Button>
      </CardContent>
      <DeleteAccountDialog
        open={open}
        onOpenChange={(next) => !deletion.isPending && setOpen(next)}
        pending={deletion.isPending}
        onConfirm={() => deletion.mutate()}
      />
    </Card>
  )
}
