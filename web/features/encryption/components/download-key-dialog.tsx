import { useId, useState, type FormEvent } from 'react'
import { keyFileName, type EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDownloadEncryptionKey } from '../api/download-encryption-key.ts'

interface DownloadKeyDialogProps {
  encryptionKey: EncryptionKeyView | undefined
  onOpenChange: (open: boolean) => void
}

/** "Download Encryption Keys": the private key is opened here and saved as a file. */
export function DownloadKeyDialog({ encryptionKey, onOpenChange }: DownloadKeyDialogProps) {
  const [masterPassword, setMasterPassword] = useState('')
  const download = useDownloadEncryptionKey()
  const passwordId = useId()

  function close(next: boolean) {
    if (download.isPending) return
    if (!next) setMasterPassword('')
    onOpenChange(next)
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (download.isPending) return
    if (!encryptionKey || !masterPassword.trim()) {
      toast({ title: 'Password required', description: 'Please enter your master password to download the keys.', variant: 'destructive' })
      return
    }
    download.mutate(
      { keyId: encryptionKey.id, masterPassword },
      {
        onSuccess: (fileName) => {
          setMasterPassword('')
          onOpenChange(false)
          toast({ title: 'Keys downloaded', description: `Saved ${fileName}. It holds your private key: keep it somewhere safe.` })
        },
        onError: (error) => toast({ title: 'Download failed', description: errorMessage(error, 'Failed to download keys'), variant: 'destructive' }),
      },
    )
  }

  return (
    <Dialog open={Boolean(encryptionKey)} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Download Encryption Keys</DialogTitle>
          <DialogDescription>
            Enter the master password of {encryptionKey ? `"${encryptionKey.keyName}"` : 'this key'}. The private key is
            decrypted in this browser and saved as {encryptionKey ? keyFileName(encryptionKey.keyName) : 'a JSON file'}.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={handleSubmit} noValidate>
          <div className="grid gap-2">
            <Label htmlFor={passwordId}>Master Password</Label>
            <PasswordInput id={passwordId} value={masterPassword} onChange={(e) => setMasterPassword(e.target.value)} autoComplete="current-password" autoFocus disabled={download.isPending} />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)} disabled={download.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={download.isPending}>
              {download.isPending && <Spinner decorative />}
              {download.isPending ? 'Downloading...' : 'Download Keys'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
