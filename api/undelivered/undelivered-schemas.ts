// Undelivered mail as the API returns it (issue #6). Keep this file free of Node-only imports:
// the browser bundles it.

/** A forward that failed for good, listed for 30 days. */
export interface UndeliveredView {
  id: string
  aliasId: string
  /** the alias address the message was sent to */
  alias: string
  /** the owner's mailbox it could not be delivered to */
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
