import { Eye, EyeOff, RefreshCw } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { SmtpCopyButton } from './smtp-copy-button.tsx'
import { SETTING_VALUE } from './smtp-setting-row.tsx'
import type { SmtpCredentialState } from './use-smtp-credential.ts'

const MASK = '•'.repeat(16)

/** The password: masked, or on screen with the seconds until it hides again. */
export function SmtpPasswordRow({ smtp }: { smtp: SmtpCredentialState }) {
  const { password } = smtp
  return (
    <div className="grid gap-1 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:gap-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground sm:pt-2">Password</dt>
      <dd className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1.5">
          <code className={SETTING_VALUE} data-testid="smtp-password" data-revealed={password ? 'true' : 'false'}>
            {password ?? MASK}
          </code>
          <SmtpCopyButton value={password ?? ''} what="Password" disabled={!password} />
          <Button variant="outline" size="sm" onClick={smtp.toggleReveal} disabled={smtp.busy}>
            {smtp.revealing ? <Spinner decorative /> : password ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {password ? 'Hide' : 'Reveal'}
          </Button>
          <Button variant="outline" size="sm" onClick={() => smtp.setConfirming('regenerate')} disabled={smtp.busy}>
            <RefreshCw aria-hidden="true" />
            Regenerate
          </Button>
        </div>
        {password && (
          <p className="text-xs text-muted-foreground" data-testid="smtp-password-countdown">
            Hidden again in {smtp.secondsLeft}s
          </p>
        )}
      </dd>
    </div>
  )
}
