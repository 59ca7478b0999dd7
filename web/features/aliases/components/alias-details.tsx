import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { aliasAddress, isAliasOn } from '../lib/alias-state.ts'
import { useAliasParts } from './alias-parts.ts'
import { ForwardEncryptionPanel } from './forward-encryption-panel.tsx'
import { SpamHandlingPanel } from './spam-handling-panel.tsx'
import { WebhookSecretPanel } from './webhook-secret-panel.tsx'

/**
 * The expandable per-alias area. Each panel here manages one thing the alias owns; it mounts
 * only while expanded, so their requests wait until the user opens it.
 */
export function AliasDetails({ alias }: { alias: AliasView }) {
  const { SmtpPanel, ContactsPanel } = useAliasParts()
  return (
    <div className="grid gap-4" data-testid="alias-details">
      <ForwardEncryptionPanel alias={alias} />
      <SpamHandlingPanel alias={alias} />
      <SmtpPanel aliasId={alias.id} address={aliasAddress(alias)} paused={!isAliasOn(alias)} />
      <WebhookSecretPanel alias={alias} />
      <ContactsPanel aliasId={alias.id} />
    </div>
  )
}
