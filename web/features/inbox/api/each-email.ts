import type { QueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'
import { emailCountsKey } from './get-email-counts.ts'
import { emailListsKey } from './get-emails.ts'

export interface FlagResult { succeeded: string[]; failed: string[] }

/** One request per e-mail (the API has no bulk route), all at once; a failure of some leaves the others done. */
export async function requestEach(method: 'PATCH' | 'DELETE', ids: readonly string[], body?: unknown): Promise<FlagResult> {
  const results = await Promise.allSettled(ids.map((id) => apiRequest(method, `/api/emails/${encodeURIComponent(id)}`, body)))
  return {
    succeeded: ids.filter((_, i) => results[i].status === 'fulfilled'),
    failed: ids.filter((_, i) => results[i].status === 'rejected'),
  }
}

/** The lists and counts (the folders' too) again from the server: star, read, delete and sync can move a message between them. */
export function refetchMail(client: QueryClient, userId: string) {
  return Promise.all([
    client.invalidateQueries({ queryKey: emailListsKey(userId) }),
    client.invalidateQueries({ queryKey: emailCountsKey(userId) }),
    client.invalidateQueries({ queryKey: emailProvidersKey }),
  ])
}
