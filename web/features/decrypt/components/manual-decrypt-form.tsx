import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { DecryptManualSchema, type DecryptManualInput } from '../../../../shared/encryption-schemas.ts'
import { Field } from '../../../components/ui/field.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'
import { issuesToFieldErrors, type FieldErrorMap } from '../../../lib/form-errors.ts'
import { CiphertextField, DecryptButton } from './ciphertext-field.tsx'

interface ManualDecryptFormProps {
  /** The message to open when it is already known (the inbox widget): no text field then. */
  encryptedText?: string
  pending: boolean
  onDecrypt: (input: DecryptManualInput) => void
}

/** Manual Decrypt: a pasted private key (or downloaded key file) and the encrypted text. */
export function ManualDecryptForm({ pending, onDecrypt, encryptedText: givenText }: ManualDecryptFormProps) {
  const [privateKey, setPrivateKey] = useState('')
  const [typedText, setEncryptedText] = useState('')
  const encryptedText = givenText ?? typedText
  const [errors, setErrors] = useState<FieldErrorMap>({})

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (pending) return
    const parsed = v.safeParse(DecryptManualSchema, { encryptedText, privateKey })
    setErrors(parsed.success ? {} : issuesToFieldErrors(parsed.issues))
    if (parsed.success) onDecrypt(parsed.output)
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Manual decrypt">
      <Field label="Private Key" error={errors.privateKey}>
        {(control) => (
          <Textarea
            {...control}
            value={privateKey}
            onChange={(e) => setPrivateKey(e.target.value)}
            rows={3}
            spellCheck={false}
            autoComplete="off"
            placeholder="AGE-SECRET-KEY-1..."
            className="font-mono text-xs"
            disabled={pending}
          />
        )}
      </Field>
      <p className="-mt-2 text-xs text-muted-foreground">The key stays in this browser. A downloaded key file's contents work too.</p>
      {givenText === undefined && <CiphertextField value={encryptedText} onChange={setEncryptedText} error={errors.encryptedText} pending={pending} />}
      <DecryptButton pending={pending} />
    </form>
  )
}
