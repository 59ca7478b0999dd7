import { Lock } from 'lucide-react'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { Switch } from '../../../components/ui/switch.tsx'
import { useAliasSetting } from './use-alias-setting.ts'
import { aliasAddress } from '../lib/alias-state.ts'

/**
 * The per-alias switch for encrypted forwarding (issue #6). It takes effect only while the owner
 * has a default age key; webhook targets always get the message as it came.
 */
export function ForwardEncryptionPanel({ alias }: { alias: AliasView }) {
  const { update, save } = useAliasSetting(alias)
  const headingId = `forward-encryption-${alias.id}`
  // shows the new position while it is saved (the list refetches before the mutation settles)
  const checked = update.isPending && update.variables ? update.variables.changes.encryptForwarded === true : alias.encryptForwarded

  function change(encryptForwarded: boolean) {
    save({ encryptForwarded }, {
      title: encryptForwarded ? 'Encryption On' : 'Encryption Off',
      description: encryptForwarded
        ? 'Mail forwarded by this alias is encrypted to your default key.'
        : 'Mail forwarded by this alias is delivered as it came.',
    })
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4" data-testid="forward-encryption-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Lock aria-hidden="true" className="size-4 text-primary" />
          <h3 id={headingId} className="text-sm font-semibold">
            Encrypt forwarded mail
          </h3>
        </div>
        <Switch
          checked={checked}
          onCheckedChange={change}
          disabled={update.isPending}
          aria-label={`Encrypt mail forwarded by ${aliasAddress(alias)}`}
        />
      </div>
      <p className="max-w-3xl text-xs text-muted-foreground">
        When you have a default encryption key (Settings), mail this alias forwards to your e-mail addresses arrives as one
        encrypted block, with only the sender, date and subject readable. Open it on the Decrypt page. Webhooks always
        receive the message as it came.
      </p>
    </section>
  )
}
