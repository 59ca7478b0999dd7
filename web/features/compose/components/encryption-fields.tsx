import { KeyRound, Lock } from 'lucide-react'
import { Textarea } from '../../../components/ui/textarea.tsx'
import type { ComposeErrors, ComposeValues, ShareableKey } from '../lib/compose-form.ts'
import { Field } from '../../../components/ui/field.tsx'
import { EncryptionNotice } from './encryption-notice.tsx'
import { ShareKeyField } from './share-key-field.tsx'
import { SwitchField } from './switch-field.tsx'

interface EncryptionFieldsProps {
  values: ComposeValues
  errors: ComposeErrors
  keys: readonly ShareableKey[] | undefined
  disabled?: boolean
  onChange: (patch: Partial<ComposeValues>) => void
  onShareChange: (share: boolean) => void
}

const ICON = 'mt-0.5 size-4 shrink-0 text-muted-foreground'

/** The encryption switch and, once on, the recipient's key, sharing and the notice. */
export function EncryptionFields({ values, errors, keys, disabled, onChange, onShareChange }: EncryptionFieldsProps) {
  return (
    <fieldset className="grid gap-5 rounded-lg border border-border bg-muted/30 p-4 sm:p-5">
      <legend className="sr-only">Encryption</legend>
      <SwitchField
        label="End-to-End Encryption"
        description="Encrypt the message with the recipient's age public key."
        icon={<Lock aria-hidden="true" className={ICON} />}
        checked={values.useEncryption}
        disabled={disabled}
        onCheckedChange={(useEncryption) => onChange({ useEncryption })}
      />
      {values.useEncryption && (
        <>
          <Field label="Recipient's Public Key" error={errors.recipientPublicKey}>
            {(control) => (
              <Textarea
                {...control}
                name="recipientPublicKey"
                rows={2}
                placeholder="age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"
                spellCheck={false}
                autoComplete="off"
                className="font-mono text-xs"
                value={values.recipientPublicKey}
                disabled={disabled}
                onChange={(e) => onChange({ recipientPublicKey: e.target.value })}
              />
            )}
          </Field>
          <SwitchField
            label="Share My Public Key"
            description="Include your public key so the recipient can reply encrypted."
            icon={<KeyRound aria-hidden="true" className={ICON} />}
            checked={values.shareMyPublicKey}
            disabled={disabled}
            onCheckedChange={onShareChange}
          />
          {values.shareMyPublicKey && (
            <ShareKeyField
              keys={keys}
              choice={values.myPublicKeyToShare}
              manualKey={values.manualPublicKey}
              errors={errors}
              disabled={disabled}
              onChoiceChange={(myPublicKeyToShare) => onChange({ myPublicKeyToShare })}
              onManualKeyChange={(manualPublicKey) => onChange({ manualPublicKey })}
            />
          )}
          <EncryptionNotice />
        </>
      )}
    </fieldset>
  )
}
