import { useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api-client.ts'
import type { SmtpPublicPorts } from '../lib/smtp-settings.ts'

export interface SmtpCredential {
  id: string
  aliasId: string
  username: string
  active: boolean
  createdAt: string
}

export interface SmtpCredentials {
  /** The list's first credential is the one shown; none means "absent". */
  credential: SmtpCredential | undefined
  host: string
  ports: SmtpPublicPorts
}

/** Every SMTP mutation of an alias invalidates this prefix. */
export const smtpCredentialsQueryKey = (aliasId: string) => ['smtp-credentials', aliasId] as const

export async function getSmtpCredentials(aliasId: string): Promise<SmtpCredentials> {
  const body = await apiGet<{ credentials: SmtpCredential[]; host: string; ports: SmtpPublicPorts }>(
    `/api/smtp-credentials/alias/${encodeURIComponent(aliasId)}`,
  )
  return { credential: body.credentials[0], host: body.host, ports: body.ports }
}

/**
 * Loaded once the panel is on screen. The username is the alias address and the server renames
 * it with the alias, so the address is part of the key: a rename fetches it afresh.
 */
export function useSmtpCredentials(aliasId: string, address: string) {
  return useQuery({
    queryKey: [...smtpCredentialsQueryKey(aliasId), address],
    queryFn: () => getSmtpCredentials(aliasId),
  })
}
