// What each public route does, for the OpenAPI document. Kept here, next to nothing else, so a
// route file needs no change to be described; api/openapi/openapi-document.test.ts fails for a
// route of the app that has no entry (and for an entry without a route).
export interface RouteDescription {
  tag: string
  summary: string
  /** true when the route needs a signed-in session (the `session` cookie) */
  signedIn?: boolean
  /** true when an API key (`Authorization: Bearer vm_…`) is accepted in place of the session */
  apiKey?: boolean
}

export const ROUTE_DESCRIPTIONS: Record<string, RouteDescription> = {
  'GET /api/health': { tag: 'system', summary: 'Health of the database, the queue, and each process (web, mx, delivery, submission) from its heartbeat' },
  'GET /api/stats': { tag: 'system', summary: 'Public figures: users and aliases' },
  'GET /api/domains': { tag: 'system', summary: "The domains aliases can be created on; signed in, with the account's active custom domains, and customDomains: its own domains with their records" },
  'GET /api/openapi.json': { tag: 'system', summary: 'This document' },

  'GET /api/auth/session': { tag: 'auth', summary: 'The signed-in user, or null' },
  'GET /api/auth/providers': { tag: 'auth', summary: 'Which sign-in providers (Google, Microsoft) are configured' },
  'POST /api/auth/register': { tag: 'auth', summary: 'Create an account with e-mail and password, and sign in' },
  'POST /api/auth/login': { tag: 'auth', summary: 'Sign in with e-mail and password' },
  'POST /api/auth/verify-email': { tag: 'auth', summary: 'Prove the address with the token of the mailed verification link, and sign in' },
  'POST /api/auth/resend-verification': { tag: 'auth', summary: 'Mail the verification link again (same answer whether or not the address has an account)' },
  'POST /api/auth/forgot-password': { tag: 'auth', summary: 'Mail a single-use password reset link (same answer whether or not the address has an account)' },
  'POST /api/auth/reset-password': { tag: 'auth', summary: 'Set a new password with the token of the mailed reset link; every session ends' },
  'POST /api/auth/confirm-target': { tag: 'auth', summary: 'Confirm a forward target address with the token of the link mailed to it' },
  'POST /api/auth/logout': { tag: 'auth', summary: 'Sign out (ends the session)' },
  'GET /api/auth/wallet/nonce': { tag: 'auth', summary: 'A single-use nonce and the message a Solana wallet signs to sign in' },
  'POST /api/auth/wallet': { tag: 'auth', summary: 'Sign in with a Solana wallet signature over the nonce message' },
  'GET /api/auth/google': { tag: 'auth', summary: 'Start Google sign-in (redirects to Google)' },
  'GET /api/auth/google/callback': { tag: 'auth', summary: 'Google sign-in callback: signs in, links a verified e-mail, or creates the account' },
  'GET /api/auth/second-factor': { tag: 'auth', summary: "Which second factors this browser's pending sign-in can use (401 when there is none or it expired)" },
  'POST /api/auth/passkey/options': { tag: 'auth', summary: 'WebAuthn authentication options: any passkey of this site, or one of the account whose sign-in waits for its second step' },
  'POST /api/auth/passkey': { tag: 'auth', summary: 'Sign in with a passkey (a complete sign-in), or complete the second step with one' },
  'POST /api/auth/second-factor': { tag: 'auth', summary: 'The second step of a sign-in: a TOTP code or a recovery code completes it and starts the session' },
  'GET /api/auth/microsoft': { tag: 'mailboxes', summary: 'Start connecting an Outlook mailbox: redirects to Microsoft sign-in (OAuth2 with PKCE); 404 when MICROSOFT_CLIENT_ID/SECRET are unset', signedIn: true },
  'GET /api/auth/microsoft/callback': { tag: 'mailboxes', summary: 'Microsoft sign-in callback: stores the Outlook mailbox with its tokens sealed, queues its first sync, and redirects to /inbox/settings?status=success&providerId&jobId (or status=error&reason)', signedIn: true },

  'GET /api/account-stats': { tag: 'account', summary: "The signed-in user's figures: aliases, mail forwarded", signedIn: true },
  'DELETE /api/account': { tag: 'account', summary: 'Delete the account and everything it owns', signedIn: true },
  'GET /api/account/totp': { tag: 'account', summary: 'Whether two-factor authentication (TOTP) is on, and how many recovery codes are left', signedIn: true },
  'POST /api/account/totp': { tag: 'account', summary: 'Start two-factor authentication: a new secret and its otpauth:// URI, pending until confirmed', signedIn: true },
  'POST /api/account/totp/confirm': { tag: 'account', summary: 'Confirm with a current code: turns two-factor authentication on, answers 10 recovery codes, ends every other session', signedIn: true },
  'DELETE /api/account/totp': { tag: 'account', summary: 'Turn two-factor authentication off (the password or a fresh passkey assertion, and a current code)', signedIn: true },
  'POST /api/account/totp/passkey-options': { tag: 'account', summary: "WebAuthn options to confirm with one of the account's passkeys instead of the password (turning two-factor authentication off)", signedIn: true },
  'POST /api/account/recovery-codes': { tag: 'account', summary: 'Replace the recovery codes with 10 new ones', signedIn: true },
  'GET /api/account/sessions': { tag: 'account', summary: 'Where the account is signed in: browser, system, created and last active (to the day), this session marked', signedIn: true },
  'POST /api/account/sessions/end-others': { tag: 'account', summary: 'Sign out every other session', signedIn: true },
  'DELETE /api/account/sessions/{sessionId}': { tag: 'account', summary: 'End one session', signedIn: true },
  'POST /api/account/password': { tag: 'account', summary: 'Change the password (the current one and a new one); every other session ends', signedIn: true },
  'GET /api/account/passkeys': { tag: 'account', summary: "The account's passkeys: name, created and last used (to the day)", signedIn: true },
  'POST /api/account/passkeys/options': { tag: 'account', summary: 'WebAuthn registration options for a new passkey (the challenge is bound to this browser for 5 minutes)', signedIn: true },
  'POST /api/account/passkeys': { tag: 'account', summary: 'Add the passkey the browser created (name and its registration response)', signedIn: true },
  'PATCH /api/account/passkeys/{passkeyId}': { tag: 'account', summary: 'Rename a passkey', signedIn: true },
  'DELETE /api/account/passkeys/{passkeyId}': { tag: 'account', summary: 'Remove a passkey', signedIn: true },

  'GET /api/aliases/{userId}': { tag: 'aliases', summary: "The user's aliases", signedIn: true, apiKey: true },
  'GET /api/aliases/{userId}/with-smtp': { tag: 'aliases', summary: "The user's aliases with their SMTP credential state", signedIn: true, apiKey: true },
  'POST /api/aliases/{userId}': { tag: 'aliases', summary: 'Create an alias', signedIn: true, apiKey: true },
  'PUT /api/aliases/{aliasId}': { tag: 'aliases', summary: "Change an alias's name or where it forwards", signedIn: true, apiKey: true },
  'PATCH /api/aliases/{aliasId}/toggle': { tag: 'aliases', summary: 'Pause or resume an alias', signedIn: true, apiKey: true },
  'DELETE /api/aliases/{aliasId}': { tag: 'aliases', summary: 'Delete an alias', signedIn: true, apiKey: true },
  'GET /api/aliases/{aliasId}/webhook-secret': { tag: 'aliases', summary: "The alias's webhook signing secret", signedIn: true, apiKey: true },
  'POST /api/aliases/{aliasId}/webhook-secret/rotate': { tag: 'aliases', summary: "Replace the alias's webhook signing secret", signedIn: true, apiKey: true },

  'GET /api/account/username': { tag: 'domains', summary: 'The username of the personal subdomain and the subdomain (null until chosen)', signedIn: true },
  'PUT /api/account/username': { tag: 'domains', summary: 'Choose the username once ({ username }): anything@<username>.<first mail domain> makes an alias on first use', signedIn: true },
  'POST /api/domains': { tag: 'domains', summary: 'Add a custom domain ({ domain }): pending, with the records to publish (ownership TXT, MX, SPF, DKIM, DMARC)', signedIn: true },
  'POST /api/domains/{domainId}/check': { tag: 'domains', summary: "Resolve the domain's records through the service's resolver: each ok, missing or wrong with what was found; ownership seen makes it active", signedIn: true },
  'PATCH /api/domains/{domainId}': { tag: 'domains', summary: 'Catch-all on or off and its default target ({ catchAll, defaultTarget })', signedIn: true },
  'DELETE /api/domains/{domainId}': { tag: 'domains', summary: 'Remove a custom domain: its aliases refuse mail; adding it again needs the ownership record again', signedIn: true },

  'GET /api/api-keys': { tag: 'api-keys', summary: "The user's API keys: name, first characters, created, last used (to the day); never the key", signedIn: true },
  'POST /api/api-keys': { tag: 'api-keys', summary: 'Create an API key ({ name }); the answer holds the key, shown this once. At most 20 per user', signedIn: true },
  'DELETE /api/api-keys/{apiKeyId}': { tag: 'api-keys', summary: 'Revoke an API key: the next request with it gets 401', signedIn: true },
  'GET /api/app-alias-settings': { tag: 'api-keys', summary: 'How aliases made by apps are made: domain, form of the name, target; with the choices', signedIn: true },
  'PUT /api/app-alias-settings': { tag: 'api-keys', summary: 'Set the domain, the form of the name (words or characters) and the target (null: the account address) of aliases made by apps', signedIn: true },

  'GET /api/forward-targets': { tag: 'aliases', summary: "The user's forward target addresses, confirmed or awaiting confirmation, with the forwards each holds", signedIn: true },
  'POST /api/forward-targets/resend': { tag: 'aliases', summary: 'Mail the confirmation link to an unconfirmed forward target again', signedIn: true },

  'POST /api/smtp-credentials': { tag: 'smtp', summary: 'Create SMTP credentials for sending from an alias', signedIn: true },
  'GET /api/smtp-credentials/alias/{aliasId}': { tag: 'smtp', summary: "An alias's SMTP credentials", signedIn: true },
  'GET /api/smtp-credentials/alias/{aliasId}/password': { tag: 'smtp', summary: "Reveal an alias's SMTP password", signedIn: true },
  'PATCH /api/smtp-credentials/{credentialId}/alias/{aliasId}/regenerate': { tag: 'smtp', summary: 'Replace an SMTP password', signedIn: true },
  'DELETE /api/smtp-credentials/{credentialId}/alias/{aliasId}': { tag: 'smtp', summary: 'Delete SMTP credentials', signedIn: true },

  'POST /api/email-jobs': { tag: 'email', summary: 'Queue an e-mail from an alias (sent after the undo window or at its scheduled time)', signedIn: true },
  'GET /api/email-jobs/{jobId}/status': { tag: 'email', summary: 'The status of a queued e-mail', signedIn: true },
  'POST /api/email-jobs/{jobId}/cancel': { tag: 'email', summary: 'Cancel a queued e-mail that has not started sending (undo)', signedIn: true },

  'GET /api/undelivered': { tag: 'undelivered', summary: 'Forwards that failed for good, kept encrypted for 30 days', signedIn: true },
  'POST /api/undelivered/{undeliveredId}/retry': { tag: 'undelivered', summary: 'Send a kept undelivered message to its target again', signedIn: true },
  'DELETE /api/undelivered/{undeliveredId}': { tag: 'undelivered', summary: 'Delete an undelivered message', signedIn: true },

  'GET /api/undelivered/webhooks': { tag: 'undelivered', summary: 'Webhook deliveries that are failing: time, target, HTTP status or network reason, next retry', signedIn: true },
  'POST /api/undelivered/webhooks/{deliveryId}/retry': { tag: 'undelivered', summary: 'Try a failing webhook delivery again now', signedIn: true },
  'DELETE /api/undelivered/webhooks/{deliveryId}': { tag: 'undelivered', summary: 'Drop a failing webhook delivery', signedIn: true },

  'GET /api/email-providers': { tag: 'mailboxes', summary: "The user's connected IMAP mailboxes with their sync state, progress and last error", signedIn: true },
  'POST /api/email-providers': { tag: 'mailboxes', summary: 'Connect an IMAP mailbox (credentials sealed; the first sync job checks them by logging in)', signedIn: true },
  'DELETE /api/email-providers/{providerId}': { tag: 'mailboxes', summary: 'Disconnect a mailbox, with its stored mail and waiting jobs', signedIn: true },
  'POST /api/email-providers/{providerId}/sync': { tag: 'mailboxes', summary: 'Queue a sync of a mailbox; answers at once with the job id to poll', signedIn: true },
  'GET /api/email-providers/{providerId}/sync-jobs/{syncJobId}': { tag: 'mailboxes', summary: 'The status of a sync job, with newEmailsCount when done', signedIn: true },
  'PATCH /api/email-providers/{providerId}/folders': { tag: 'mailboxes', summary: 'Sync a folder besides INBOX ({ path, enabled: true }; a sync is queued), or stop syncing it and drop its stored mail', signedIn: true },
  'GET /api/emails': { tag: 'mailboxes', summary: 'A page of synced mail (by mailbox, folder and category: inbox, unread, starred); by=conversation pages conversations and answers their total; q searches (words in subject, sender, recipients, and in bodies on the IMAP servers; from:, to:, subject:, has:attachment, is:unread, is:read, is:starred, before:, after:)', signedIn: true },
  'GET /api/emails/counts': { tag: 'mailboxes', summary: 'Total, unread and starred counts of synced mail (all, one mailbox or one folder), and its size', signedIn: true },
  'GET /api/emails/events': { tag: 'mailboxes', summary: 'Server-Sent Events: "mail" whenever the user\'s stored mail changed (new mail synced, mail removed); 429 past 8 open streams', signedIn: true },
  'GET /api/emails/{emailId}': { tag: 'mailboxes', summary: 'One synced message with its conversation', signedIn: true },
  'PATCH /api/emails/{emailId}': { tag: 'mailboxes', summary: 'Star or mark read a message (written back to the IMAP server by a job)', signedIn: true },
  'DELETE /api/emails/{emailId}': { tag: 'mailboxes', summary: 'Delete a message: moved to Trash on the IMAP server by a job after 10 s (Undo until then); in Trash, deleted for good', signedIn: true },
  'POST /api/emails/{emailId}/move': { tag: 'mailboxes', summary: 'Archive or move a message to another folder of its account ({ folderId }): moved on the IMAP server after 10 s (Undo until then)', signedIn: true },
  'POST /api/emails/{emailId}/restore': { tag: 'mailboxes', summary: 'Undo a delete while its move to Trash has not reached the IMAP server (10 s)', signedIn: true },
  'GET /api/emails/{emailId}/attachments/{attachmentId}': { tag: 'mailboxes', summary: 'Download an attachment of a synced message', signedIn: true },

  'GET /api/encryption-keys': { tag: 'encryption', summary: "The user's age keys", signedIn: true },
  'POST /api/encryption-keys': { tag: 'encryption', summary: 'Add an age key (made in the browser, or by the server with the master password)', signedIn: true },
  'GET /api/encryption-keys/{keyId}/encrypted-private-key': { tag: 'encryption', summary: "A key's private key, encrypted with the master password", signedIn: true },
  'POST /api/encryption-keys/{keyId}/download': { tag: 'encryption', summary: 'Download a private key, opened with the master password', signedIn: true },
  'PATCH /api/encryption-keys/{keyId}': { tag: 'encryption', summary: 'Rename a key or make it the default', signedIn: true },
  'DELETE /api/encryption-keys/{keyId}': { tag: 'encryption', summary: 'Delete a key', signedIn: true },
  'POST /api/decrypt-auto': { tag: 'encryption', summary: 'Decrypt age text with the default key and the master password', signedIn: true },
  'POST /api/decrypt-manual': { tag: 'encryption', summary: 'Decrypt age text with a given private key', signedIn: true },
}
