import { useId, type ReactNode } from 'react'
import { Label } from '../../../components/ui/label.tsx'

export interface FieldControlProps {
  id: string
  'aria-invalid'?: true
  'aria-describedby'?: string
}

interface ComposeFieldProps {
  label: string
  error?: string
  hint?: ReactNode
  /** Renders the control (select, textarea) with the id and ARIA wiring of the label and message. */
  children: (control: FieldControlProps) => ReactNode
}

/** A labelled select or textarea with its error announced, like FormField does for inputs. */
export function ComposeField({ label, error, hint, children }: ComposeFieldProps) {
  const id = useId()
  const messageId = `${id}-message`
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error || hint ? messageId : undefined })}
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
