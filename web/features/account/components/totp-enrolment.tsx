import { useEffect, useState, type FormEvent } from 'react'
import QRCode from 'qrcode'
import { CodeSchema, type TotpEnrolment as Enrolment } from '../../../../shared/account-protection-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useConfirmTotp } from '../api/enrol-totp.ts'

/** Scan the QR code (or type the secret), then confirm with a current code. */
export function TotpEnrolment({ enrolment, onConfirmed, onCancel }: { enrolment: Enrolment; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const [qr, setQr] = useState<string>()
  const [code, setCode] = useState('')
  const confirm = useConfirmTotp()
  useEffect(() => {
    let live = true
    void QRCode.toDataURL(enrolment.otpauthUri, { margin: 2, width: 200, errorCorrectionLevel: 'M' }).then((url) => live && setQr(url))
    return () => {
      live = false
    }
  }, [enrolment.otpauthUri])
  const form = useSchemaForm(CodeSchema, {
    async onSubmit(input) {
      const { recoveryCodes } = await confirm.mutateAsync(input.code)
      toast({ title: 'Two-Factor Authentication On', description: 'Every other session was signed out.' })
      onConfirmed(recoveryCodes)
    },
    onError: (error) => toast({ title: 'Code Not Accepted', description: errorMessage(error, 'That code is not right'), variant: 'destructive' }),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => form.submit(event, { code })

  return (
    <div className="grid gap-4 sm:grid-cols-[auto_1fr]">
      <div className="grid justify-items-center gap-2">
        {qr ? <img src={qr} width={200} height={200} alt="QR code for your authenticator app" className="rounded-md bg-white" /> : <Spinner />}
      </div>
      <div className="grid content-start gap-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
          <li>Scan the QR code with an authenticator app (Aegis, 2FAS, Google Authenticator, 1Password...).</li>
          <li>Or type this key into the app: <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-foreground" aria-label="Secret key">{enrolment.secret}</code></li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <form onSubmit={handleSubmit} noValidate className="grid gap-3" aria-label="Confirm two-factor authentication">
          <FormField label="Code from your app" name="code" autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} error={form.errors.code} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={form.pending}>
              {form.pending && <Spinner decorative />}
              Turn On
            </Button>
            <Button type="button" variant="outline" onClick={onCancel}>Cancel</Button>
          </div>
        </form>
      </div>
    </div>
  )
}
