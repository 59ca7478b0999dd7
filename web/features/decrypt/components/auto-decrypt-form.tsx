import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { DecryptAutoSchema, type DecryptAutoInput, type EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { Field } from '../../../components/ui/field.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { issuesToFieldErrors, type FieldErrorMap } from '../../../lib/form-errors.ts'
import { CiphertextField, DecryptButton } from './ciphertext-field.tsx'

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })

interface AutoDecryptFormProps {
  /** The message to open when it is already known (the inbox widget): no text field then. */
  encryptedText?: string
  keys: EncryptionKeyView[]
  pending: boolean
  onDecrypt: (input: DecryptAutoInput) => void
}

/** Auto Decrypt: a saved key, its master password and the encrypted text. */
export function AutoDecryptForm({ keys, pending, onDecrypt, encryptedText: givenText }: AutoDecryptFormProps) {
  const [keyId, setKeyId] = useState(() => (keys.find((k) => k.isDefault) ?? keys[0])?.id ?? '')
  const [masterPassword, setMasterPassword] = useState('')
  const [typedText, setEncryptedText] = useState('')
  const encryptedText = givenText ?? typedText
  const [errors, setErrors] = useState<FieldErrorMap>({})
  const selected = keys.some((k) => k.id === keyId) ? keyId : ''

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (pending) return
    const parsed = v.safeParse(DecryptAutoSchema, { encryptedText, keyId: selected, masterPassword })
    setErrors(parsed.success ? {} : issuesToFieldErrors(parsed.issues))
    if (parsed.success) onDecrypt(parsed.output)
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Auto decrypt">
      <Field label="Decryption Key" error={errors.keyId}>
        {(control) => (
          <NativeSelect {...control} value={selected} onChange={(e) => setKeyId(e.target.value)} disabled={pending}>
            <option value="" disabled>
              Select a key
            </option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.keyName} ({DATE.format(new Date(k.createdAt))}){k.isDefault ? ' · Default' : ''}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field label="Master Password" error={errors.masterPassword}>
        {(control) => (
          <PasswordInput {...control} value={masterPassword} onChange={(e) => setMasterPassword(e.target.value)} autoComplete="current-password" disabled={pending} />
        )}
      </Field>
      {givenText === undefined && <CiphertextField value={encryptedText} onChange={setEncryptedText} error={errors.encryptedText} pending={pending} />}
      <DecryptButton pending={pending} />
    </form>
  )
}
