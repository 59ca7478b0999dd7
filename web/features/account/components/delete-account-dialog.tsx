import { useId, useState } from 'react'
import { Button } from '../../../components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'

export const DELETE_CONFIRMATION_WORD = 'DELETE'

interface DeleteAccountDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  pending: boolean
  onConfirm: () => void
}

/** Confirmation that only enables its button once DELETE is typed (any case). */
export function DeleteAccountDialog({ open, onOpenChange, pending, onConfirm }: DeleteAccountDialogProps) {
  const [typed, setTyped] = useState('')
  const inputId = useId()
  const confirmed = typed.trim().toUpperCase() === DELETE_CONFIRMATION_WORD

  function handleOpenChange(next: boolean) {
    if (!next) setTyped('')
    onOpenChange(next)
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>
            This permanently deletes your account, your aliases, encryption keys, SMTP credentials, mail waiting to be sent, and your connected mailboxes with the mail copied from them (your provider keeps its own copy).
            Mail sent to your aliases will be refused from now on. Download any encryption keys you still need first.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            if (confirmed && !pending) onConfirm()
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor={inputId}>
              Type <span className="font-mono font-bold">{DELETE_CONFIRMATION_WORD}</span> to confirm
            </Label>
            <Input
              id={inputId}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder={DELETE_CONFIRMATION_WORD}
              className="font-mono"
            />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => handleOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!confirmed || pending}>
              {pending && <Spinner decorative />}
              {pending ? 'Deleting...' : 'Delete My Account'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
