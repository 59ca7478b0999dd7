// What the Outlook (OAuth2) connection tells the browser, shared by the API that says it and the
// settings page that reads it (README "Outlook (OAuth2)": the `/inbox/settings?status=…` return).

/**
 * The start of an Outlook account's `lastError` when Microsoft no longer renews its sign-in (the
 * refresh token expired or was revoked): the page shows "Outlook Authentication Expired" with a
 * re-authenticate button (a navigation to /api/auth/microsoft) instead of the error text.
 */
export const OUTLOOK_EXPIRED_MARKER = 'OUTLOOK_TOKEN_EXPIRED'

export const OUTLOOK_EXPIRED_MESSAGE = `${OUTLOOK_EXPIRED_MARKER}: Microsoft sign-in for this mailbox has expired or was revoked. Re-authenticate with Outlook to resume syncing.`

export const isOutlookExpired = (lastError: string | null | undefined) => lastError?.startsWith(OUTLOOK_EXPIRED_MARKER) === true

/**
 * The callback returns to `/inbox/settings?status=success&providerId=…&jobId=…` (the account is
 * stored and its first sync queued; poll the job like any other) or to
 * `/inbox/settings?status=error&reason=…`. No token ever travels in the address.
 */
export const OUTLOOK_RETURN_REASONS = {
  /** the user declined at Microsoft, or Microsoft answered with an error */
  denied: 'Microsoft sign-in was cancelled.',
  /** the answer did not belong to a sign-in this browser started (state, PKCE) or was used twice */
  state: 'The Microsoft sign-in could not be verified. Please try again.',
  /** the code could not be exchanged, or the answer named no mailbox */
  exchange: 'Microsoft did not confirm the sign-in. Please try again.',
  /** the mailbox is already connected with a password (remove it first) */
  exists: 'This mailbox is already connected.',
} as const
export type OutlookReturnReason = keyof typeof OUTLOOK_RETURN_REASONS
