import { Link } from 'react-router-dom'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'
import { MANUAL_KEY, type ComposeErrors, type ShareableKey } from '../lib/compose-form.ts'
import { Field } from '../../../components/ui/field.tsx'

interface ShareKeyFieldProps {
  /** undefined while the list loads */
  keys: readonly ShareableKey[] | undefined
  choice: string
  manualKey: string
  errors: ComposeErrors
  disabled?: boolean
  onChoiceChange: (choice: string) => void
  onManualKeyChange: (key: string) => void
}

/** One of the user's saved keys, or "Enter manually" with a textarea for the key. */
export function ShareKeyField({ keys, choice, manualKey, errors, disabled, onChoiceChange, onManualKeyChange }: ShareKeyFieldProps) {
  const hint =
    keys && keys.length === 0 ? (
      <>
        No saved keys yet: enter one, or create one in{' '}
        <Link to="/settings" className="font-medium text-primary underline-offset-4 hover:underline">
          Settings
        </Link>
        .
      </>
    ) : (
      'It is added below your message so the recipient can reply encrypted.'
    )
  return (
    <>
      <Field label="Your Public Key" error={errors.myPublicKeyToShare} hint={hint}>
        {(control) => (
          <NativeSelect {...control} name="myPublicKeyToShare" value={choice} disabled={disabled} onChange={(e) => onChoiceChange(e.target.value)}>
            <option value="" disabled>
              {keys ? 'Select one of your keys' : 'Loading your keys...'}
            </option>
            {keys?.map((key) => (
              <option key={key.id} value={key.publicKey}>
                {key.isDefault ? `${key.keyName} (Default)` : key.keyName}
              </option>
            ))}
            <option value={MANUAL_KEY}>Enter manually</option>
          </NativeSelect>
        )}
      </Field>
      {choice === MANUAL_KEY && (
        <Field label="Public Key to Share" error={errors.manualPublicKey}>
          {(control) => (
            <Textarea
              {...control}
              name="manualPublicKey"
              rows={2}
              placeholder="age1..."
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-xs"
              value={manualKey}
              disabled={disabled}
              onChange={(e) => onManualKeyChange(e.target.value)}
            />
          )}
        </Field>
      )}
    </>
  )
}
