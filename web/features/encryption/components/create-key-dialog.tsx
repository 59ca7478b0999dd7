import { useId, useState, type FormEvent } from 'react'
import { KEY_NAME_MAX } from '../../../../shared/encryption-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useCreateEncryptionKey } from '../api/create-encryption-key.ts'
import { checkPassword, refusalMessage } from '../lib/password-strength.ts'
import { PasswordStrengthMeter, usePasswordStrength } from './password-strength-meter.tsx'

interface CreateKeyDialogProps {
  userId: string
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** "Create New Encryption Key": the key pair is made and locked in this browser (docs/decisions/0002). */
export function CreateKeyDialog({ userId, open, onOpenChange }: CreateKeyDialogProps) {
  const [keyName, setKeyName] = useState('')
  const [masterPassword, setMasterPassword] = useState('')
  const [refusal, setRefusal] = useState('')
  const [checking, setChecking] = useState(false)
  const creation = useCreateEncryptionKey(userId)
  const strength = usePasswordStrength(masterPassword)
  const nameId = useId()
  const passwordId = useId()
  const meterId = useId()
  const busy = creation.isPending || checking

  function close(next: boolean) {
    if (creation.isPending) return
    if (!next) {
      setMasterPassword('')
      setRefusal('')
    }
    onOpenChange(next)
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const name = keyName.trim()
    if (!name) {
      toast({ title: 'Key name required', description: 'Please provide a name for your encryption key.', variant: 'destructive' })
      return
    }
    if (!masterPassword.trim()) {
      toast({ title: 'Master password required', description: 'Please provide a master password to protect your private key.', variant: 'destructive' })
      return
    }
    // It guards a private key that cannot be recovered, so a guessable one is refused here.
    setChecking(true)
    const verdict = await checkPassword(masterPassword).finally(() => setChecking(false))
    if (!verdict.accepted) {
      setRefusal(refusalMessage(verdict))
      toast({ title: 'Master password too weak', description: refusalMessage(verdict), variant: 'destructive' })
      return
    }
    creation.mutate(
      { keyName: name, masterPassword },
      {
        onSuccess: (key) => {
          setKeyName('')
          setMasterPassword('')
          onOpenChange(false)
          toast({ title: 'Encryption key created', description: `"${key.keyName}" is ready${key.isDefault ? ' and is your default key' : ''}.` })
        },
        onError: (error) => toast({ title: 'Key creation failed', description: errorMessage(error, 'Failed to create encryption key'), variant: 'destructive' }),
      },
    )
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New Encryption Key</DialogTitle>
          <DialogDescription>
            The key pair is generated in this browser and its private key is encrypted with your master password before
            it is saved. Veilmail never sees either, so a forgotten master password cannot be recovered.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={handleSubmit} noValidate>
          <div className="grid gap-2">
            <Label htmlFor={nameId}>Key Name</Label>
            <Input id={nameId} value={keyName} onChange={(e) => setKeyName(e.target.value)} maxLength={KEY_NAME_MAX} placeholder="e.g. Personal" autoComplete="off" disabled={busy} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={passwordId}>Master Password</Label>
            <PasswordInput
              id={passwordId}
              value={masterPassword}
              onChange={(e) => {
                setMasterPassword(e.target.value)
                setRefusal('')
              }}
              autoComplete="new-password"
              aria-describedby={meterId}
              aria-invalid={refusal ? true : undefined}
              disabled={busy}
            />
            <PasswordStrengthMeter id={meterId} strength={strength} />
            {refusal && (
              <p role="alert" className="text-xs text-destructive">
                {refusal}
              </p>
            )}
            <p className="text-xs text-muted-foreground">
              Rated Fair or better, or at least 12 characters that are not Very weak. You need it to download this key and
              to decrypt messages with it.
            </p>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy && <Spinner decorative />}
              {creation.isPending ? 'Creating...' : 'Create Key'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
