import { useMemo } from 'react'
import { useEmailProviders } from '../../../lib/email-providers.ts'

/** The ids of the accounts' Trash folders (SPECIAL-USE \Trash, RFC 6154): a delete there is for good. */
export function useTrashFolders(): ReadonlySet<string> {
  const providers = useEmailProviders().data
  return useMemo(() => new Set((providers ?? []).flatMap((p) => p.folders.filter((f) => f.specialUse === '\\Trash' || f.path.toLowerCase() === 'trash').map((f) => f.id))), [providers])
}
