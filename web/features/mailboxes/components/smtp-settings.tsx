import { useState, type FormEvent } from 'react'
import { Pencil, Save, Send } from 'lucide-react'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { useUpdateSmtp } from '../api/update-smtp.ts'

type Security = 'tls' | 'starttls'
type Errors = Partial<Record<'host' | 'port' | 'username' | 'password', string>>
const SECURITY_LABEL: Record<Security, string> = { tls: 'SSL/TLS', starttls: 'STARTTLS' }

/**
 * "Sending" on a connected account (README "Sending as your mailbox"): the SMTP server compose
 * sends as this address through, its login (the IMAP one, or one of its own), editable.
 */
export function SmtpSettings({ provider: p }: { provider: EmailProviderView }) {
  const [editing, setEditing] = useState(false)
  const smtp = p.smtp
  return (
    <section className="grid gap-2 border-t border-border pt-3 text-sm" aria-label={`Sending as ${p.email}`} data-testid="smtp-settings">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="flex items-center gap-1.5 font-medium"><Send className="size-4 text-muted-foreground" aria-hidden="true" />Sending</h4>
        {!editing && (
          <Button variant="ghost" size="sm" onClick={() => setEditing(true)} aria-label={`${smtp ? 'Edit' : 'Set up'} sending settings of ${p.email}`}>
            <Pencil aria-hidden="true" />
            {smtp ? 'Edit' : 'Set up'}
          </Button>
        )}
      </div>
      {!editing && (
        <p className="text-muted-foreground" data-testid="smtp-summary">
          {smtp ? (
            <>Compose can send as this address through <span className="font-mono text-foreground">{smtp.host}:{smtp.port}</span> ({SECURITY_LABEL[smtp.security]}),
              {' '}{smtp.username ? <>logged in as <span className="font-mono text-foreground">{smtp.username}</span></> : 'with the same login as IMAP'}.</>
          ) : 'Not set up: add this mailbox\'s SMTP server to send as it from compose.'}
        </p>
      )}
      {editing && <SmtpForm provider={p} onDone={() => setEditing(false)} />}
    </section>
  )
}

function SmtpForm({ provider: p, onDone }: { provider: EmailProviderView; onDone: () => void }) {
  const smtp = p.smtp
  const [host, setHost] = useState(smtp?.host ?? p.host)
  const [port, setPort] = useState(String(smtp?.port ?? 465))
  const [security, setSecurity] = useState<Security>(smtp?.security ?? 'tls')
  const [ownLogin, setOwnLogin] = useState(Boolean(smtp?.username))
  const [username, setUsername] = useState(smtp?.username ?? '')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const update = useUpdateSmtp()

  function chooseSecurity(next: Security) {
    setSecurity(next)
    // the usual port of each, unless the user typed another
    if (port === '465' || port === '587' || port === '') setPort(next === 'tls' ? '465' : '587')
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (update.isPending) return
    const number = Number(port)
    if (!host.trim()) return setErrors({ host: 'Please enter the SMTP server address.' })
    if (!Number.isInteger(number) || number < 1 || number > 65535) return setErrors({ port: 'Port must be a number from 1 to 65535' })
    update.mutate({ providerId: p.id, host, port: number, security, username: ownLogin ? username : '', password: ownLogin ? password : '' }, {
      onSuccess: () => {
        toast({ title: 'Sending settings saved', description: `Compose can send as ${p.email}.` })
        onDone()
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.errors : undefined
        setErrors({ host: fields?.host?.[0], port: fields?.port?.[0], username: fields?.username?.[0], password: fields?.password?.[0] })
        toast({ title: 'Failed to save sending settings', description: errorMessage(error, 'The settings could not be saved.'), variant: 'destructive' })
      },
    })
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={`Sending settings of ${p.email}`} className="grid gap-3 md:grid-cols-2">
      <FormField label="SMTP Server" name="smtpHost" autoComplete="off" spellCheck={false} placeholder="smtp.example.com" value={host}
        onChange={(e) => { setHost(e.target.value); setErrors((x) => ({ ...x, host: undefined })) }} error={errors.host} />
      <div className="grid grid-cols-[6rem_minmax(0,1fr)] gap-3">
        <FormField label="Port" name="smtpPort" inputMode="numeric" autoComplete="off" value={port}
          onChange={(e) => { setPort(e.target.value); setErrors((x) => ({ ...x, port: undefined })) }} error={errors.port} />
        <Field label="Security">
          {(control) => (
            <NativeSelect {...control} name="smtpSecurity" value={security} onChange={(e) => chooseSecurity(e.target.value as Security)}>
              <option value="tls">SSL/TLS (port 465)</option>
              <option value="starttls">STARTTLS (port 587)</option>
            </NativeSelect>
          )}
        </Field>
      </div>
      <label className="flex items-center gap-2 md:col-span-2">
        <input type="checkbox" className="size-4 accent-primary" checked={ownLogin} onChange={(e) => setOwnLogin(e.target.checked)} />
        The SMTP server takes another login than IMAP
      </label>
      {ownLogin && (
        <>
          <FormField label="SMTP User Name" name="smtpUsername" autoComplete="off" spellCheck={false} value={username}
            onChange={(e) => { setUsername(e.target.value); setErrors((x) => ({ ...x, username: undefined })) }} error={errors.username} />
          <Field label="SMTP Password" error={errors.password} hint={smtp?.username ? 'Leave empty to keep the saved password.' : undefined}>
            {(control) => <PasswordInput {...control} name="smtpPassword" autoComplete="new-password" value={password} onChange={(e) => { setPassword(e.target.value); setErrors((x) => ({ ...x, password: undefined })) }} />}
          </Field>
        </>
      )}
      <div className="flex flex-wrap gap-2 md:col-span-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? <Spinner decorative /> : <Save aria-hidden="true" />}
          {update.isPending ? 'Saving…' : 'Save sending settings'}
        </Button>
        <Button variant="outline" size="sm" onClick={onDone} disabled={update.isPending}>Cancel</Button>
      </div>
    </form>
  )
}
