// What each public route does, for the OpenAPI document. Kept here, next to nothing else, so a
// route file needs no change to be described; api/openapi/openapi-document.test.ts fails for a
// route of the app that has no entry (and for an entry without a route).
export interface RouteDescription {
  tag: string
  summary: string
  /** true when the route needs a signed-in session (the `session` cookie) */
  signedIn?: boolean
}

export const ROUTE_DESCRIPTIONS: Record<string, RouteDescription> = {
  'GET /api/health': { tag: 'system', summary: 'Health of the database, the queue, and each process (web, mx, delivery, submission) from its heartbeat' },
  'GET /api/stats': { tag: 'system', summary: 'Public figures: users and aliases' },
  'GET /api/domains': { tag: 'system', summary: 'The domains aliases can be created on' },
  'GET /api/openapi.json': { tag: 'system', summary: 'This document' },

  'GET /api/auth/session': { tag: 'auth', summary: 'The signed-in user, or null' },
  'GET /api/auth/providers': { tag: 'auth', summary: 'Which sign-in providers (Google, Microsoft) are configured' },
  'POST /api/auth/register': { tag: 'auth', summary: 'Create an account with e-mail and password, and sign in' },
  'POST /api/auth/login': { tag: 'auth', summary: 'Sign in with e-mail and password' },
  'POST /api/auth/logout': { tag: 'auth', summary: 'Sign out (ends the session)' },
  'GET /api/auth/wallet/nonce': { tag: 'auth', summary: 'A single-use nonce and the message a Solana wallet signs to sign in' },
  'POST /api/auth/wallet': { tag: 'auth', summary: 'Sign in with a Solana wallet signature over the nonce message' },
  'GET /api/auth/google': { tag: 'auth', summary: 'Start Google sign-in (redirects to Google)' },
  'GET /api/auth/google/callback': { tag: 'auth', summary: 'Google sign-in callback: signs in, links a verified e-mail, or creates the account' },

  'GET /api/account-stats': { tag: 'account', summary: "The signed-in user's figures: aliases, mail forwarded", signedIn: true },
  'DELETE /api/account': { tag: 'account', summary: 'Delete the account and everything it owns', signedIn: true },

  'GET /api/aliases/{userId}': { tag: 'aliases', summary: "The user's aliases", signedIn: true },
  'GET /api/aliases/{userId}/with-smtp': { tag: 'aliases', summary: "The user's aliases with their SMTP credential state", signedIn: true },
  'POST /api/aliases/{userId}': { tag: 'aliases', summary: 'Create an alias', signedIn: true },
  'PUT /api/aliases/{aliasId}': { tag: 'aliases', summary: "Change an alias's name or where it forwards", signedIn: true },
  'PATCH /api/aliases/{aliasId}/toggle': { tag: 'aliases', summary: 'Pause or resume an alias', signedIn: true },
  'DELETE /api/aliases/{aliasId}': { tag: 'aliases', summary: 'Delete an alias', signedIn: true },
  'GET /api/aliases/{aliasId}/webhook-secret': { tag: 'aliases', summary: "The alias's webhook signing secret", signedIn: true },
  'POST /api/aliases/{aliasId}/webhook-secret/rotate': { tag: 'aliases', summary: "Replace the alias's webhook signing secret", signedIn: true },

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

  'GET /api/encryption-keys': { tag: 'encryption', summary: "The user's age keys", signedIn: true },
  'POST /api/encryption-keys': { tag: 'encryption', summary: 'Add an age key (made in the browser, or by the server with the master password)', signedIn: true },
  'GET /api/encryption-keys/{keyId}/encrypted-private-key': { tag: 'encryption', summary: "A key's private key, encrypted with the master password", signedIn: true },
  'POST /api/encryption-keys/{keyId}/download': { tag: 'encryption', summary: 'Download a private key, opened with the master password', signedIn: true },
  'PATCH /api/encryption-keys/{keyId}': { tag: 'encryption', summary: 'Rename a key or make it the default', signedIn: true },
  'DELETE /api/encryption-keys/{keyId}': { tag: 'encryption', summary: 'Delete a key', signedIn: true },
  'POST /api/decrypt-auto': { tag: 'encryption', summary: 'Decrypt age text with the default key and the master password', signedIn: true },
  'POST /api/decrypt-manual': { tag: 'encryption', summary: 'Decrypt age text with a given private key', signedIn: true },
}
