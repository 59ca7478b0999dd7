import { cloneElement, useId, type ReactElement } from 'react'
import { Label } from '../../../components/ui/label.tsx'

interface DecryptFieldProps {
  label: string
  error?: string
  /** The control; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>
}

/** A labelled control with its validation message announced. */
export function DecryptField({ label, error, children }: DecryptFieldProps) {
  const id = useId()
  const messageId = `${id}-message`
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? messageId : undefined })}
      {error && (
        <p id={messageId} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  )
}
