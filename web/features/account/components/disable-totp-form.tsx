import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { SecondFactorCodeSchema } from '../../../../shared/account-protection-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useDisableTotp } from '../api/disable-totp.ts'
import { usePasskeys } from '../api/passkeys.ts'

// The password is checked on the server; here only that one is typed when it is asked for.
const FormSchema = v.object({ password: v.string(), code: SecondFactorCodeSchema })

/** Turning the second factor off: the password (or one of the account's passkeys) and a current code. */
export function DisableTotpForm({ passwordRequired, onCancel }: { passwordRequired: boolean; onCancel: () => void }) {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const passkeys = usePasskeys()
  const [withPasskey, setWithPasskey] = useState(false)
  const disable = useDisableTotp()
  const form = useSchemaForm(FormSchema, {
    async onSubmit(input) {
      await disable.mutateAsync({ ...input, withPasskey })
      toast({ title: 'Two-Factor Authentication Off', description: 'Signing in no longer asks for a code.' })
    },
    onError: (error) => toast({ title: 'Not Turned Off', description: errorMessage(error, 'Failed to turn off two-factor authentication'), variant: 'destructive' }),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => form.submit(event, { password, code })
  return (
    <form onSubmit={handleSubmit} noValidate className="grid max-w-sm gap-3" aria-label="Turn off two-factor authentication">
      {(passkeys.data?.length ?? 0) > 0 && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={withPasskey} onChange={(e) => setWithPasskey(e.target.checked)} />
          Confirm with a passkey instead of the password
        </label>
      )}
      {passwordRequired && !withPasskey && (
        <FormField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={form.errors.password} />
      )}
      <FormField label="Code from your app or a recovery code" name="code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} error={form.errors.code} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="destructive" disabled={form.pending}>
          {form.pending && <Spinner decorative />}
          Turn Off
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  )
}
