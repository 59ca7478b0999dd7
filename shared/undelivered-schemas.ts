// Undelivered mail as the API returns it (issue #6). Keep this file free of Node-only imports:
// the browser bundles it.

/** A forward that failed for good, listed for 30 days. */
export interface UndeliveredView {
  id: string
  /** where the forward was going: the owner's mailbox, or a webhook URL */
  kind: 'email' | 'webhook'
  aliasId: string
  /** the alias address the message was sent to */
  alias: string
  /** the owner's mailbox or webhook URL it could not be delivered to */
  target: string
  /** the relay's reply, or why delivery was given up */
  reason: string
  /** an encrypted copy was kept and can be sent again; false for a report only */
  kept: boolean
  /** 'retrying' while a retry is queued or running */
  status: 'kept' | 'retrying'
  retries: number
  createdAt: string
  expiresAt: string
}

/** A webhook delivery that failed and is waiting for its next try (issue 15). */
export interface WebhookFailureView {
  /** the delivery's id: Retry and Drop name it */
  id: string
  aliasId: string
  alias: string
  /** the webhook URL */
  target: string
  attempts: number
  /** the last failure: `http-503`, or a network reason (`ECONNREFUSED`, `RequestTimeoutError`) */
  lastError: string | null
  lastAttemptAt: string | null
  /** when the queue tries again by itself; null while an attempt is running or due now */
  nextRetryAt: string | null
}
