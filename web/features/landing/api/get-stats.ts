import { useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api-client.ts'

export interface PublicStats {
  totalUsers: number
  totalAliases: number
}

export function usePublicStats() {
  return useQuery({
    queryKey: ['stats'],
    queryFn: () => apiGet<PublicStats>('/api/stats'),
  })
}

const numberFormat = new Intl.NumberFormat('en-US')

/**
 * An honest figure for the landing page: the count with the right plural ("1 user", "1,234
 * users"); `rounded` gives whole thousands with "k+" from 1,000 on ("48k+ users") and never a "k"
 * below. Undefined when the figure is missing or zero, so the page hides it rather than invent one.
 */
export function formatCount(value: number | undefined, noun: { one: string; many: string }, rounded = false): string | undefined {
  const total = Math.floor(Number(value))
  if (!Number.isFinite(total) || total < 1) return undefined
  if (rounded && total >= 1000) return `${numberFormat.format(Math.floor(total / 1000))}k+ ${noun.many}`
  return `${numberFormat.format(total)} ${total === 1 ? noun.one : noun.many}`
}

const USERS = { one: 'user', many: 'users' }
const ALIASES = { one: 'alias created', many: 'aliases created' }

/** The final call to action's "{n}k+ users", honest below 1,000. */
export const formatUserCount = (stats: PublicStats | undefined) => formatCount(stats?.totalUsers, USERS, true)
/** The hero's social-proof figures, exact. */
export const formatExactUserCount = (stats: PublicStats | undefined) => formatCount(stats?.totalUsers, USERS)
export const formatAliasCount = (stats: PublicStats | undefined) => formatCount(stats?.totalAliases, ALIASES)
