import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { SmtpCredentialsPanel } from '../../smtp/components/smtp-credentials-panel.tsx'
import { aliasAddress, isAliasOn } from '../lib/alias-state.ts'
import { ForwardEncryptionPanel } from './forward-encryption-panel.tsx'
import { WebhookSecretPanel } from './webhook-secret-panel.tsx'

/**
 * The expandable per-alias area. Each panel here manages one thing the alias owns; it mounts
 * only while expanded, so their requests wait until the user opens it.
 */
export function AliasDetails({ alias }: { alias: AliasView }) {
  return (
    <div className="grid gap-4" data-testid="alias-details">
      <ForwardEncryptionPanel alias={alias} />
      <SmtpCredentialsPanel aliasId={alias.id} address={aliasAddress(alias)} paused={!isAliasOn(alias)} />
      <WebhookSecretPanel alias={alias} />
    </div>
  )
}
