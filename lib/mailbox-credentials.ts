// A connected mailbox's login, as the API stores it and the sync uses it: the IMAP server and a
// password, or an Outlook account's OAuth2 tokens. Sealed at rest (SecretBox, its own key from
// SECRET_KEY, bound to the account's id): the API seals what a user enters or Microsoft returns,
// the sync opens it to log in and seals renewed tokens. Here, below both, so neither reaches into
// the other (scripts/floors.test.ts).
import type { Config } from './config.ts'
import { SecretBox } from './secret-box.ts'

interface ImapServer {
  email: string
  host: string
  port: number
  /** true: TLS from the start (993); false: STARTTLS, required (143) */
  secure: boolean
}

/** The decoded credentials: base64 JSON as the client sends them, sealed at rest. */
export interface PasswordCredentials extends ImapServer {
  password: string
}

/** An Outlook account's (tokenType "oauth2"), from Microsoft sign-in; sealed at rest. */
export interface OAuthCredentials extends ImapServer {
  tokenType: 'oauth2'
  accessToken: string
  refreshToken: string
  /** when the access token stops working (ms since the epoch) */
  expiresAt: number
}

export type ImapCredentials = PasswordCredentials | OAuthCredentials

export const isOAuth = (creds: ImapCredentials): creds is OAuthCredentials => 'tokenType' in creds && creds.tokenType === 'oauth2'

const credentialsBox = (config: Pick<Config, 'secretKey'>) => new SecretBox(config.secretKey, 'imap-credentials')

export function sealCredentials(config: Pick<Config, 'secretKey'>, providerId: string, creds: ImapCredentials): Buffer {
  return credentialsBox(config).seal(JSON.stringify(creds), providerId)
}

export function openCredentials(config: Pick<Config, 'secretKey'>, provider: { id: string; credentials: Buffer }): ImapCredentials {
  return JSON.parse(credentialsBox(config).openText(provider.credentials, provider.id)) as ImapCredentials
}

/** An SMTP login of its own (the account's SMTP server takes other credentials than its IMAP one). */
export interface SmtpLogin {
  user: string
  password: string
}

const smtpBox = (config: Pick<Config, 'secretKey'>) => new SecretBox(config.secretKey, 'smtp-credentials')

export function sealSmtpLogin(config: Pick<Config, 'secretKey'>, providerId: string, login: SmtpLogin): Buffer {
  return smtpBox(config).seal(JSON.stringify(login), providerId)
}

export function openSmtpLogin(config: Pick<Config, 'secretKey'>, providerId: string, sealed: Buffer): SmtpLogin {
  return JSON.parse(smtpBox(config).openText(sealed, providerId)) as SmtpLogin
}
