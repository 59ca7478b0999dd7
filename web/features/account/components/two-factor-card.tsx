import { useState } from 'react'
import { ShieldCheck } from 'lucide-react'
import type { TotpEnrolment as Enrolment } from '../../../../shared/account-protection-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useStartTotp } from '../api/enrol-totp.ts'
import { useTotpStatus } from '../api/get-totp-status.ts'
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes.ts'
import { DisableTotpForm } from './disable-totp-form.tsx'
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx'
import { TotpEnrolment } from './totp-enrolment.tsx'

/** Settings → Security: "Two-factor authentication" with an authenticator app (TOTP) and recovery codes. */
export function TwoFactorCard() {
  const status = useTotpStatus()
  const start = useStartTotp()
  const regenerate = useRegenerateRecoveryCodes()
  const [enrolment, setEnrolment] = useState<Enrolment>()
  const [codes, setCodes] = useState<string[]>()
  const [disabling, setDisabling] = useState(false)
  const failed = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error, 'Please try again'), variant: 'destructive' })

  let body
  if (status.isPending) body = <Spinner />
  else if (status.isError) body = <p className="text-sm text-destructive">{errorMessage(status.error, 'Failed to load')}</p>
  else if (codes) body = <RecoveryCodesPanel codes={codes} onDone={() => setCodes(undefined)} />
  else if (enrolment) {
    body = <TotpEnrolment enrolment={enrolment} onCancel={() => setEnrolment(undefined)} onConfirmed={(next) => { setEnrolment(undefined); setCodes(next) }} />
  } else if (!status.data.enabled) {
    body = (
      <Button onClick={() => start.mutate(undefined, { onSuccess: setEnrolment, onError: failed('Setup Failed') })} disabled={start.isPending}>
        {start.isPending && <Spinner decorative />}
        Set Up Two-Factor Authentication
      </Button>
    )
  } else {
    body = (
      <div className="grid gap-4">
        <p className="text-sm">
          <span className="font-medium text-primary">On.</span> Every sign-in asks for a code from your authenticator app.{' '}
          {status.data.recoveryCodesLeft} of 10 recovery codes left.
        </p>
        {disabling ? (
          <DisableTotpForm passwordRequired={status.data.passwordRequired} onCancel={() => setDisabling(false)} />
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => regenerate.mutate(undefined, { onSuccess: (r) => setCodes(r.recoveryCodes), onError: failed('Not Regenerated') })} disabled={regenerate.isPending}>
              Regenerate Recovery Codes
            </Button>
            <Button variant="outline" onClick={() => setDisabling(true)}>Turn Off</Button>
          </div>
        )}
      </div>
    )
  }

  return (
    <Card data-testid="two-factor-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Two-Factor Authentication</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          A code from an authenticator app on your phone, asked for after your password, Google or wallet sign-in. Turning it on signs out every other session.
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  )
}
