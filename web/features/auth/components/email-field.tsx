import { FormField } from '../../../components/ui/form-field.tsx'

/** The e-mail field of the sign-in, register and forgot-password forms. */
export function EmailField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <FormField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  )
}
