import { useState, type FormEvent, type Ref } from 'react'
import { LogIn, Plus } from 'lucide-react'
import { PROVIDER_PRESETS, type ProviderKind } from '../../../../shared/email-provider-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { useCreateEmailProvider, type CreatedEmailProvider } from '../api/create-email-provider.ts'
import { checkAccountForm, createProviderRequest, EMPTY_ACCOUNT_FORM, selectProvider, selectSecurity, type AccountForm, type FormProblem } from '../lib/account-form.ts'
import { OUTLOOK_START_URL } from '../lib/outlook-return.ts'
import { ImapServerFields, UserNameField } from './imap-server-fields.tsx'
import { ProviderPicker } from './provider-picker.tsx'

/** Gmail and Outlook show guidance; Yahoo needs an app password too (README "Connecting a mailbox"). */
const GUIDANCE: Partial<Record<ProviderKind, string>> = {
  gmail: 'Gmail needs an app password, not your Google password: turn on 2-Step Verification, then create one under Google Account → Security → App passwords.',
  yahoo: 'Yahoo needs an app password, not your Yahoo password: create one under Account Info → Account Security → Generate app password.',
}

type Errors = Partial<Record<'email' | 'username' | 'password' | 'host' | 'port', string>>

interface AddAccountFormProps {
  outlookEnabled: boolean
  /** the new account and its first sync job, to poll */
  onAdded: (created: CreatedEmailProvider) => void
  emailRef?: Ref<HTMLInputElement>
}

/** "IMAP Account Settings" (README "Connecting a mailbox"): provider buttons and the add-account form. */
export function AddAccountForm({ outlookEnabled, onAdded, emailRef }: AddAccountFormProps) {
  const [choice, setChoice] = useState<ProviderKind>(EMPTY_ACCOUNT_FORM.provider)
  const [form, setForm] = useState<AccountForm>(() => selectProvider(EMPTY_ACCOUNT_FORM, EMPTY_ACCOUNT_FORM.provider))
  const [errors, setErrors] = useState<Errors>({})
  const creation = useCreateEmailProvider()
  const preset = PROVIDER_PRESETS[form.provider]

  function choose(provider: ProviderKind) {
    setChoice(provider)
    setErrors({})
    if (provider !== 'outlook') setForm((f) => selectProvider(f, provider))
  }

  const set = (field: 'email' | 'username' | 'password' | 'host' | 'port') => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  function refuse(problem: FormProblem) {
    setErrors({ [problem.field]: problem.description })
    toast({ title: problem.title, description: problem.description, variant: 'destructive' })
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (creation.isPending) return
    const problem = checkAccountForm(form)
    if (problem) return refuse(problem)
    setErrors({})
    creation.mutate(createProviderRequest(form), {
      onSuccess: (created) => {
        setForm((f) => ({ ...f, email: '', username: '', password: '' }))
        onAdded(created)
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.errors : undefined
        setErrors({ email: fields?.email?.[0], username: fields?.username?.[0], password: fields?.password?.[0], host: fields?.host?.[0] })
        toast({ title: 'Failed to add email account', description: errorMessage(error, 'The account could not be added.'), variant: 'destructive' })
      },
    })
  }

  return (
    <div className="grid gap-5">
      <ProviderPicker value={choice} onChange={choose} outlookEnabled={outlookEnabled} />
      {choice === 'outlook' ? (
        <div className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4" data-testid="outlook-connect">
          <p className="text-sm text-muted-foreground">
            Outlook mailboxes connect with Microsoft sign-in (OAuth2): you sign in at Microsoft and Veilmail never sees your
            Microsoft password.
          </p>
          <Button className="w-full sm:w-auto sm:justify-self-start" onClick={() => window.location.assign(OUTLOOK_START_URL)}>
            <LogIn aria-hidden="true" />
            Sign in with Microsoft
          </Button>
        </div>
      ) : (
        <form onSubmit={handleSubmit} noValidate aria-label="Add email account" className="grid gap-4 md:grid-cols-2">
          {GUIDANCE[form.provider] && (
            <p className="rounded-lg border border-border bg-muted/40 p-3 text-sm text-muted-foreground md:col-span-2" data-testid="provider-guidance">
              {GUIDANCE[form.provider]}
            </p>
          )}
          <FormField
            ref={emailRef}
            label="Email Address"
            name="email"
            type="email"
            autoComplete="off"
            spellCheck={false}
            placeholder="you@example.com"
            value={form.email}
            onChange={(e) => set('email')(e.target.value)}
            error={errors.email}
          />
          <Field label={preset ? 'App Password' : 'Password'} error={errors.password}>
            {(control) => <PasswordInput {...control} name="password" autoComplete="new-password" value={form.password} onChange={(e) => set('password')(e.target.value)} />}
          </Field>
          {preset ? (
            <p className="text-sm text-muted-foreground md:col-span-2" data-testid="preset-server">
              Server: <span className="font-mono text-foreground">{preset.host}</span>, port {preset.port}, SSL/TLS
            </p>
          ) : (
            <>
              <ImapServerFields
                form={form}
                hostError={errors.host}
                onChange={(field, value) => set(field)(value)}
                onSecurity={(secure) => setForm((f) => selectSecurity(f, secure))}
              />
              <UserNameField value={form.username} error={errors.username} placeholder="the email address" onChange={set('username')} />
            </>
          )}
          <div className="md:col-span-2">
            <Button type="submit" disabled={creation.isPending} className="w-full sm:w-auto">
              {creation.isPending ? <Spinner decorative /> : <Plus aria-hidden="true" />}
              {creation.isPending ? 'Connecting…' : 'Add Account'}
            </Button>
          </div>
        </form>
      )}
    </div>
  )
}
