import { useState, type FormEvent } from 'react'
import { Unlock } from 'lucide-react'
import * as v from 'valibot'
import { DecryptManualSchema, type DecryptManualInput } from '../../../../api/encryption/encryption-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'
import { firstErrors, type FieldErrors } from '../lib/field-errors.ts'
import { DecryptField } from './decrypt-field.tsx'

interface ManualDecryptFormProps {
  pending: boolean
  onDecrypt: (input: DecryptManualInput) => void
}

/** Spec §2 Manual Decrypt: a pasted private key (or downloaded key file) and the encrypted text. */
export function ManualDecryptForm({ pending, onDecrypt }: ManualDecryptFormProps) {
  const [privateKey, setPrivateKey] = useState('')
  const [encryptedText, setEncryptedText] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (pending) return
    const parsed = v.safeParse(DecryptManualSchema, { encryptedText, privateKey })
    setErrors(parsed.success ? {} : firstErrors(parsed.issues))
    if (parsed.success) onDecrypt(parsed.output)
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Manual decrypt">
      <DecryptField label="Private Key" error={errors.privateKey}>
        <Textarea
          value={privateKey}
          onChange={(e) => setPrivateKey(e.target.value)}
          rows={3}
          spellCheck={false}
          autoComplete="off"
          placeholder="AGE-SECRET-KEY-1..."
          className="font-mono text-xs"
          disabled={pending}
        />
      </DecryptField>
      <p className="-mt-2 text-xs text-muted-foreground">The key stays in this browser. A downloaded key file's contents work too.</p>
      <DecryptField label="Encrypted Message" error={errors.encryptedText}>
        <Textarea
          value={encryptedText}
          onChange={(e) => setEncryptedText(e.target.value)}
          rows={9}
          spellCheck={false}
          placeholder={'-----BEGIN AGE ENCRYPTED FILE-----\n...\n-----END AGE ENCRYPTED FILE-----'}
          className="font-mono text-xs"
          disabled={pending}
        />
      </DecryptField>
      <Button type="submit" disabled={pending} className="w-full sm:w-auto sm:justify-self-start">
        {pending ? <Spinner decorative /> : <Unlock aria-hidden="true" />}
        {pending ? 'Decrypting...' : 'Decrypt Message'}
      </Button>
    </form>
  )
}
