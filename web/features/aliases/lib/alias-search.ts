import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { aliasAddress, aliasTargets } from './alias-state.ts'

export const PAGE_SIZES = [10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_BUTTONS = 5

/**
 * Case-insensitive substring over alias@domain, forwardTo and notes. A paused alias's
 * forwardTo is the literal null, so the targets it resumes with are searched too.
 */
export function filterAliases(aliases: AliasView[], search: string): AliasView[] {
  const needle = search.trim().toLowerCase()
  if (!needle) return aliases
  return aliases.filter((a) =>
    [aliasAddress(a), a.forwardTo, aliasTargets(a), a.notes ?? ''].some((field) => field.toLowerCase().includes(needle)),
  )
}

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize))

export function pageItems<T>(items: T[], page: number, pageSize: number): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize)
}

/** At most five page numbers, keeping the current page as near the middle as the ends allow. */
export function pageWindow(page: number, pages: number): number[] {
  const count = Math.min(MAX_PAGE_BUTTONS, pages)
  const start = Math.min(Math.max(1, page - Math.floor(MAX_PAGE_BUTTONS / 2)), pages - count + 1)
  return Array.from({ length: count }, (_, i) => start + i)
}
