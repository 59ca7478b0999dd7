import { Unlock } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'

interface CiphertextFieldProps {
  value: string
  onChange: (value: string) => void
  error?: string
  pending: boolean
}

/** The armored message both decrypt forms take. */
export function CiphertextField({ value, onChange, error, pending }: CiphertextFieldProps) {
  return (
    <Field label="Encrypted Message" error={error}>
      {(control) => (
        <Textarea
          {...control}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          rows={9}
          spellCheck={false}
          placeholder={'-----BEGIN AGE ENCRYPTED FILE-----\n...\n-----END AGE ENCRYPTED FILE-----'}
          className="font-mono text-xs"
          disabled={pending}
        />
      )}
    </Field>
  )
}

export function DecryptButton({ pending }: { pending: boolean }) {
  return (
    <Button type="submit" disabled={pending} className="w-full sm:w-auto sm:justify-self-start">
      {pending ? <Spinner decorative /> : <Unlock aria-hidden="true" />}
      {pending ? 'Decrypting...' : 'Decrypt Message'}
    </Button>
  )
}
