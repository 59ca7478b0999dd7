import { useEffect } from 'react'
import { emailJobs } from '../lib/email-jobs.ts'

/**
 * Mount once in the app shell. Tracked jobs belong to the signed-in user: when the user signs
 * out or changes, tracking stops (a poll without a session would bounce the visitor to /auth).
 */
export function EmailJobTracker({ userId }: { userId: string | undefined }) {
  useEffect(() => () => emailJobs.clear(), [userId])
  return null
}
