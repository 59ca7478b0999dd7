import { ShieldCheck } from 'lucide-react'
import { Link } from 'react-router-dom'

/** What encryption covers, and where the user's own keys live. */
export function EncryptionNotice() {
  return (
    <div role="note" aria-label="Encryption Notice" className="flex gap-3 rounded-lg border border-primary/30 bg-primary/5 p-4 text-sm">
      <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
      <div className="grid gap-1">
        <p className="font-medium">Encryption Notice</p>
        <p className="text-muted-foreground">
          The message is encrypted with age in this browser before it is sent. Only the recipient&apos;s private key can
          decrypt it. The subject line and addresses are not encrypted. Manage your own keys in{' '}
          <Link to="/settings" className="font-medium text-primary underline-offset-4 hover:underline">
            Settings
          </Link>
          .
        </p>
      </div>
    </div>
  )
}
