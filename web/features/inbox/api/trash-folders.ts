import { useMemo } from 'react'
import { useEmailProviders } from '../../../lib/email-providers.ts'

/** The ids of the accounts' Trash folders (SPECIAL-USE \Trash, RFC 6154): a delete there is for good. */
export function useTrashFolders(): ReadonlySet<string> {
  const providers = useEmailProviders().data
  return useMemo(() => new Set((providers ?? []).flatMap((p) => p.folders.filter((f) => f.specialUse === '\\Trash' || f.path.toLowerCase() === 'trash').map((f) => f.id))), [providers])
}

/** Each account's Archive folder (SPECIAL-USE \Archive): account id → folder id. */
export function useArchiveFolders(): ReadonlyMap<string, string> {
  const providers = useEmailProviders().data
  return useMemo(() => new Map((providers ?? []).flatMap((p) => {
    const archive = p.folders.find((f) => f.specialUse === '\\Archive')
    return archive ? [[p.id, archive.id] as const] : []
  })), [providers])
}

/** The ids of the accounts' Drafts folders (SPECIAL-USE \Drafts): a message there opens in compose to be finished. */
export function useDraftsFolders(): ReadonlySet<string> {
  const providers = useEmailProviders().data
  return useMemo(() => new Set((providers ?? []).flatMap((p) => p.folders.filter((f) => f.specialUse === '\\Drafts').map((f) => f.id))), [providers])
}
