import { Field } from '../../../components/ui/field.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'

interface ImapServerFieldsProps {
  form: { host: string; port: string; secure: boolean }
  hostError?: string
  onChange: (field: 'host' | 'port', value: string) => void
  /** SSL/TLS or STARTTLS chosen (each with its port: account-form.ts selectSecurity) */
  onSecurity: (secure: boolean) => void
}

/** Custom IMAP's server, port and security, in the add-account form and the edit dialog. */
export function ImapServerFields({ form: { host, port, secure }, hostError, onChange, onSecurity }: ImapServerFieldsProps) {
  return (
    <>
      <FormField
        label="IMAP Server"
        name="host"
        autoComplete="off"
        spellCheck={false}
        placeholder="imap.example.com"
        value={host}
        onChange={(e) => onChange('host', e.target.value)}
        error={hostError}
      />
      <div className="grid grid-cols-[6rem_minmax(0,1fr)] gap-4">
        <FormField label="Port" name="port" inputMode="numeric" autoComplete="off" value={port} onChange={(e) => onChange('port', e.target.value)} />
        <Field label="Security">
          {(control) => (
            <NativeSelect {...control} name="security" value={secure ? 'ssl' : 'starttls'} onChange={(e) => onSecurity(e.target.value === 'ssl')}>
              <option value="ssl">SSL/TLS (port 993)</option>
              <option value="starttls">STARTTLS (port 143)</option>
            </NativeSelect>
          )}
        </Field>
      </div>
    </>
  )
}

/** The server's login when it is not the address (empty: the address). */
export function UserNameField({ value, error, placeholder, onChange }: { value: string; error?: string; placeholder: string; onChange: (value: string) => void }) {
  return (
    <FormField
      label="User Name"
      name="username"
      autoComplete="off"
      spellCheck={false}
      placeholder={placeholder}
      hint="The server's login, when it is not the email address"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  )
}
