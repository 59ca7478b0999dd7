import type { AliasView } from '../../../../api/aliases/alias-schemas.ts'
import { WebhookSecretPanel } from './webhook-secret-panel.tsx'

/**
 * The expandable per-alias area. Each panel here manages one thing the alias owns; the SMTP
 * credentials panel of spec §2 belongs here too, once the SMTP credential API exists.
 */
export function AliasDetails({ alias }: { alias: AliasView }) {
  return (
    <div className="grid gap-4" data-testid="alias-details">
      <WebhookSecretPanel alias={alias} />
    </div>
  )
}
