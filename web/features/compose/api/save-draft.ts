import type { DraftView, SaveDraftInput } from '../../../../shared/draft-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

/** PUT /api/drafts/{id}: saved here at once, then in the mailbox's Drafts folder by its write-back. */
export function saveDraft(id: string, draft: SaveDraftInput): Promise<{ draft: DraftView }> {
  return apiRequest<{ draft: DraftView }>('PUT', `/api/drafts/${encodeURIComponent(id)}`, draft)
}

/** DELETE /api/drafts/{id}: its copy leaves the Drafts folder. */
export function discardDraft(id: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('DELETE', `/api/drafts/${encodeURIComponent(id)}`)
}
