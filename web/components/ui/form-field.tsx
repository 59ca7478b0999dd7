import type { ComponentProps, ReactNode } from 'react'
import { Field } from './field.tsx'
import { Input } from './input.tsx'

interface FormFieldProps extends ComponentProps<'input'> {
  label: string
  error?: string
  hint?: ReactNode
}

/** A labelled input with its error announced to assistive technology. */
export function FormField({ label, error, hint, id, ...inputProps }: FormFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id}>
      {(control) => <Input {...control} {...inputProps} />}
    </Field>
  )
}
