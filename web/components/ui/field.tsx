import { useId, type ReactNode } from 'react'
import { Label } from './label.tsx'

export interface FieldControlProps {
  id: string
  'aria-invalid'?: true
  'aria-describedby'?: string
}

interface FieldProps {
  label: string
  error?: string
  hint?: ReactNode
  id?: string
  /** Renders the control (input, select, textarea) with the id and ARIA wiring of the label and message. */
  children: (control: FieldControlProps) => ReactNode
}

/** A labelled control with its error (or hint) announced to assistive technology. */
export function Field({ label, error, hint, id, children }: FieldProps) {
  const generatedId = useId()
  const controlId = id ?? generatedId
  const messageId = `${controlId}-message`
  return (
    <div className="grid gap-2">
      <Label htmlFor={controlId}>{label}</Label>
      {children({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': error || hint ? messageId : undefined })}
      {error ? (
        <p id={messageId} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  )
}
