import { PAUSED, type AliasView } from '../../../../shared/alias-schemas.ts'
import { isWebhookUrl, splitTargets } from '../../../../shared/alias-target-rules.ts'

export const PAUSED_MESSAGE = 'Paused - emails silently dropped'

export const aliasAddress = (alias: Pick<AliasView, 'alias' | 'domain'>) => `${alias.alias}@${alias.domain}`

/** The switch is on only when active and forwardTo is not the literal null (paused). */
export const isAliasOn = (alias: AliasView) => alias.active && alias.forwardTo !== PAUSED

/** The targets mail goes to, or would go to once a paused alias resumes. */
export function aliasTargets(alias: AliasView): string {
  return alias.forwardTo === PAUSED ? (alias.lastForwardTo ?? '') : alias.forwardTo
}

export const hasWebhookTarget = (alias: AliasView) => splitTargets(aliasTargets(alias)).some(isWebhookUrl)

export const formatCreated = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
