// Compose saves what is being written as a mailbox to that account's Drafts folder (README
// "Drafts"): a pause in typing (DRAFT_DELAY_MS) saves the To, Cc, Subject and Message as they are. A
// draft reopened from the Drafts folder is saved at once, so that sending or the next save takes
// that copy out. Another mailbox chosen starts another draft and throws the first away. Drafts
// written from an alias are not saved: an alias has no mailbox of its own to keep them in.
import { useEffect, useRef, useState } from 'react'
import { discardDraft, saveDraft } from '../api/save-draft.ts'
import type { ComposeValues } from './compose-form.ts'
import { fromFields } from './senders.ts'

export const DRAFT_DELAY_MS = 1500

export type DraftStatus = 'none' | 'saving' | 'saved' | 'failed'

export interface DraftAutosave {
  status: DraftStatus
  /**
   * The draft's id once a save of it has been answered, after waiting for a save still in flight:
   * a mail sent while its draft's first save is on the way names that draft, and the server takes
   * it out of the folder after the save, not before (then the save would put it back).
   */
  savedDraftId: () => Promise<string | undefined>
  restart: () => void
}

export function useDraftAutosave(values: ComposeValues, enabled: boolean): DraftAutosave {
  const providerId = enabled ? fromFields(values.fromAlias).fromProviderId : undefined
  const [draft, setDraft] = useState<{ id: string; providerId: string; saved: boolean } | undefined>()
  const [status, setStatus] = useState<DraftStatus>('none')
  // what the form opened with (a reply's quote is not yet a draft): saved once the user changes it
  const { to, cc, subject, body, replacesEmailId } = values
  const opened = useRef(`${to}\n${cc}\n${subject}\n${body}`)
  // the save in flight, if any: what savedDraftId waits for
  const saving = useRef<Promise<unknown>>(undefined)
  const current = useRef(draft)
  current.current = draft

  // a draft of this mailbox, or none; another mailbox starts another draft and throws away the first
  useEffect(() => {
    setDraft((current) => {
      if (current?.providerId === providerId) return current
      if (current?.saved) void discardDraft(current.id).catch(() => {})
      setStatus('none')
      return providerId ? { id: crypto.randomUUID(), providerId, saved: false } : undefined
    })
  }, [providerId])

  useEffect(() => {
    const changed = `${to}\n${cc}\n${subject}\n${body}` !== opened.current
    if (!draft || !(changed || (replacesEmailId && !draft.saved)) || (!to && !cc && !subject && !body)) return
    const timer = setTimeout(() => {
      setStatus('saving')
      // the reopened copy is named until the first save has replaced it
      const save = saveDraft(draft.id, { providerId: draft.providerId, to, cc, subject, body, ...(draft.saved ? {} : { replacesEmailId }) }).then(
        () => {
          if (current.current?.id === draft.id) current.current = { ...draft, saved: true }
          setDraft((d) => (d?.id === draft.id ? { ...d, saved: true } : d))
          setStatus('saved')
        },
        () => setStatus('failed'),
      )
      saving.current = save
    }, replacesEmailId && !draft.saved ? 0 : DRAFT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [draft?.id, to, cc, subject, body]) // eslint-disable-line react-hooks/exhaustive-deps

  return {
    status,
    async savedDraftId() {
      await saving.current
      return current.current?.saved ? current.current.id : undefined
    },
    // sent: the next mail written here is a new draft
    restart: () => {
      opened.current = '\n\n\n'
      setStatus('none')
      setDraft((d) => (d ? { id: crypto.randomUUID(), providerId: d.providerId, saved: false } : d))
    },
  }
}
