// Microsoft sign-in for Outlook accounts (arctic's Entra ID client). A module of its own so that
// only what uses it loads arctic: the API's sign-in routes, and the sync when it renews an Outlook
// account's tokens (db/mailbox-login.ts imports it then); a sync process with no Outlook
// account never holds it in memory. In lib/, below both (scripts/floors.test.ts).
import { MicrosoftEntraId } from 'arctic'
import type { Config } from './config.ts'

export { OAuth2RequestError } from 'arctic'

/**
 * What an Outlook access token may do: read the mailbox over IMAP, send as it over SMTP (SMTP.Send,
 * README "Sending as your mailbox"), and be renewed (offline_access).
 */
export const OUTLOOK_IMAP_SCOPES = ['https://outlook.office.com/IMAP.AccessAsUser.All', 'https://outlook.office.com/SMTP.Send', 'offline_access']

export const microsoftRedirectUri = (config: Config) => `${config.publicUrl}/api/auth/microsoft/callback`

/**
 * arctic's Microsoft Entra ID client for the `common` tenant (work, school and personal accounts).
 * arctic builds its endpoints on login.microsoftonline.com; they are repointed at
 * MICROSOFT_AUTH_URL / MICROSOFT_TOKEN_URL (their defaults are the same URLs), so a national
 * cloud or the tests' stand-in can take their place.
 */
export function microsoftClient(config: Config): MicrosoftEntraId {
  const ms = config.microsoft
  if (!ms) throw new Error('MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET are not set')
  const client = new MicrosoftEntraId('common', ms.clientId, ms.clientSecret, microsoftRedirectUri(config))
  Object.assign(client, { authorizationEndpoint: ms.authUrl, tokenEndpoint: ms.tokenUrl })
  return client
}
