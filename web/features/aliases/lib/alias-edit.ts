import type { AliasView, UpdateAliasInput } from '../../../../shared/alias-schemas.ts'
import { aliasTargets } from './alias-state.ts'

export interface AliasDraft {
  alias: string
  forwardTo: string
  notes: string
}

export function draftFromAlias(alias: AliasView): AliasDraft {
  return { alias: alias.alias, forwardTo: aliasTargets(alias), notes: alias.notes ?? '' }
}

/**
 * Inline edit saves only when alias and forwardTo are non-empty after trimming and
 * forwardTo contains an "@". A webhook-only alias is therefore re-pointed with the create form.
 */
export function canSaveDraft(draft: AliasDraft): boolean {
  return draft.alias.trim() !== '' && draft.forwardTo.trim() !== '' && draft.forwardTo.includes('@')
}

/**
 * The fields that differ from the alias; empty notes are left out. A paused alias
 * compares against the targets it resumes with; the server keeps new ones for the resume.
 */
export function draftChanges(alias: AliasView, draft: AliasDraft): Partial<UpdateAliasInput> {
  const changes: Partial<UpdateAliasInput> = {}
  const name = draft.alias.trim()
  const targets = draft.forwardTo.trim()
  const notes = draft.notes.trim()
  if (name !== alias.alias) changes.alias = name
  if (targets !== aliasTargets(alias)) changes.forwardTo = targets
  if (notes && notes !== (alias.notes ?? '')) changes.notes = notes
  return changes
}
