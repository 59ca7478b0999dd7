import { FormField } from '../../../components/ui/form-field.tsx'

/** The e-mail field of the sign-in, register and forgot-password forms. */
export function EmailField({ value, onChange, error, autoComplete = 'email' }: { value: string; onChange: (value: string) => void; error?: string; autoComplete?: string }) {
  return (
    <FormField
      label="Email"
      name="email"
      type="email"
      autoComplete={autoComplete}
      placeholder="you@example.com"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  )
}
