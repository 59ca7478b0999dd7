import { KeyRound } from 'lucide-react'
import { Link } from 'react-router-dom'
import { Button } from '../../../components/ui/button.tsx'

/** Auto Decrypt without any saved key: how to make one. */
export function NoKeysNotice() {
  return (
    <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed border-border px-4 py-10 text-center">
      <KeyRound className="size-8 text-muted-foreground" aria-hidden="true" />
      <div className="grid gap-1">
        <p className="font-semibold">No Encryption Keys Available</p>
        <p className="text-sm text-muted-foreground">Auto decrypt uses a key saved in your account.</p>
      </div>
      <ol className="grid list-inside list-decimal gap-1 text-left text-sm text-muted-foreground">
        <li>Open Settings and choose Create New Key</li>
        <li>Give it a name and a master password</li>
        <li>Share its public key, then decrypt here what is sent to it</li>
      </ol>
      <Button asChild variant="outline">
        <Link to="/settings">Go to Settings</Link>
      </Button>
      <p className="text-xs text-muted-foreground">Have a private key already? Use Manual Decrypt.</p>
    </div>
  )
}
