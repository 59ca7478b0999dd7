import { createContext, useContext, type ComponentType } from 'react'

/**
 * What an alias's details show but other features build: the SMTP credentials panel (smtp), the contacts (contacts).
 * The dashboard route hands it in, so the aliases feature imports no other feature.
 */
export interface AliasParts {
  SmtpPanel: ComponentType<{ aliasId: string; address: string; paused: boolean }>
  /** the alias's contacts with their block switch (contacts) */
  ContactsPanel: ComponentType<{ aliasId: string }>
}

export const AliasPartsContext = createContext<AliasParts | null>(null)

export function useAliasParts(): AliasParts {
  const parts = useContext(AliasPartsContext)
  if (!parts) throw new Error('useAliasParts() outside <AliasList parts={…}>')
  return parts
}
