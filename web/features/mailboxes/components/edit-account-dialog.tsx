import { useState, type FormEvent } from 'react'
import { PROVIDER_PRESETS, type EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import type { CreatedEmailProvider } from '../api/create-email-provider.ts'
import { useUpdateEmailProvider } from '../api/update-email-provider.ts'
import { ImapServerFields, UserNameField } from './imap-server-fields.tsx'
import { editAccountForm, selectSecurity, updateProviderRequest, type EditAccountForm, type PasswordProvider } from '../lib/account-form.ts'

type Errors = Partial<Record<'username' | 'password' | 'host', string>>

/**
 * A password account's connection edited (README "Connecting a mailbox"): Custom IMAP's server,
 * port and security, any account's user name and password (empty: the saved one). Saved, the
 * account connects again and the page follows that first sync.
 */
export function EditAccountDialog({ provider, onClose, onSaved }: { provider: EmailProviderView & { provider: PasswordProvider }; onClose: () => void; onSaved: (saved: CreatedEmailProvider) => void }) {
  const [form, setForm] = useState<EditAccountForm>(() => editAccountForm(provider))
  const [errors, setErrors] = useState<Errors>({})
  const update = useUpdateEmailProvider()
  const preset = PROVIDER_PRESETS[provider.provider]
  const set = (field: keyof Errors | 'port') => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (update.isPending) return
    const request = updateProviderRequest(form)
    if ('title' in request) {
      setErrors({ [request.field]: request.description })
      return
    }
    update.mutate({ providerId: provider.id, request }, {
      onSuccess: onSaved,
      onError: (error) => {
        const fields = error instanceof ApiError ? error.errors : undefined
        setErrors({ username: fields?.username?.[0], password: fields?.password?.[0], host: fields?.host?.[0] })
        toast({ title: 'Failed to save the account', description: errorMessage(error, 'The account could not be saved.'), variant: 'destructive' })
      },
    })
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Edit {provider.email}</DialogTitle>
          <DialogDescription>Saved, Veilmail logs in again with these settings. The password stays as saved unless you type a new one.</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} noValidate aria-label="Edit email account" className="grid gap-4">
          {preset ? (
            <p className="text-sm text-muted-foreground">Server: <span className="font-mono text-foreground">{preset.host}</span>, port {preset.port}, SSL/TLS</p>
          ) : (
            <ImapServerFields
              form={form}
              hostError={errors.host}
              onChange={(field, value) => set(field)(value)}
              onSecurity={(secure) => setForm((f) => selectSecurity(f, secure))}
            />
          )}
          <UserNameField value={form.username} error={errors.username} placeholder={provider.email} onChange={set('username')} />
          <Field label={preset ? 'App Password' : 'Password'} error={errors.password} hint="Leave empty to keep the saved password">
            {(control) => <PasswordInput {...control} name="password" autoComplete="new-password" value={form.password} onChange={(e) => set('password')(e.target.value)} />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending && <Spinner decorative />}
              {update.isPending ? 'Saving…' : 'Save and connect'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
