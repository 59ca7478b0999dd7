import { useState, type FormEvent } from 'react'
import { Unlock } from 'lucide-react'
import * as v from 'valibot'
import { DecryptAutoSchema, type DecryptAutoInput, type EncryptionKeyView } from '../../../../api/encryption/encryption-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { PasswordInput } from '../../../components/ui/password-input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'
import { firstErrors, type FieldErrors } from '../lib/field-errors.ts'
import { DecryptField } from './decrypt-field.tsx'

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })

interface AutoDecryptFormProps {
  keys: EncryptionKeyView[]
  pending: boolean
  onDecrypt: (input: DecryptAutoInput) => void
}

/** Spec §2 Auto Decrypt: a saved key, its master password and the encrypted text. */
export function AutoDecryptForm({ keys, pending, onDecrypt }: AutoDecryptFormProps) {
  const [keyId, setKeyId] = useState(() => (keys.find((k) => k.isDefault) ?? keys[0])?.id ?? '')
  const [masterPassword, setMasterPassword] = useState('')
  const [encryptedText, setEncryptedText] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const selected = keys.some((k) => k.id === keyId) ? keyId : ''

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (pending) return
    const parsed = v.safeParse(DecryptAutoSchema, { encryptedText, keyId: selected, masterPassword })
    setErrors(parsed.success ? {} : firstErrors(parsed.issues))
    if (parsed.success) onDecrypt(parsed.output)
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Auto decrypt">
      <DecryptField label="Decryption Key" error={errors.keyId}>
        <NativeSelect value={selected} onChange={(e) => setKeyId(e.target.value)} disabled={pending}>
          <option value="" disabled>
            Select a key
          </option>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.keyName} ({DATE.format(new Date(k.createdAt))}){k.isDefault ? ' · Default' : ''}
            </option>
          ))}
        </NativeSelect>
      </DecryptField>
      <DecryptField label="Master Password" error={errors.masterPassword}>
        <PasswordInput value={masterPassword} onChange={(e) => setMasterPassword(e.target.value)} autoComplete="current-password" disabled={pending} />
      </DecryptField>
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
