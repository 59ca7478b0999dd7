import { FormField } from '../../../components/ui/form-field.tsx'
import type { FieldErrorMap } from '../../../lib/form-errors.ts'

interface NewPasswordFieldsProps {
  label: string
  password: string
  confirmPassword: string
  onPassword: (value: string) => void
  onConfirmPassword: (value: string) => void
  errors: FieldErrorMap
}

/** A new password typed twice (register, reset password). */
export function NewPasswordFields({ label, password, confirmPassword, onPassword, onConfirmPassword, errors }: NewPasswordFieldsProps) {
  return (
    <>
      <FormField
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        error={errors.password}
        hint="At least 8 characters."
      />
      <FormField
        label="Confirm Password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(e) => onConfirmPassword(e.target.value)}
        error={errors.confirmPassword}
      />
    </>
  )
}
