// How long housekeeping keeps what it purges, stated once: workers/delivery/housekeeping.ts deletes by it
// and the privacy page (web/app/routes/privacy.tsx) says it. Browser-safe (no Node imports).

/**
 * A sent, cancelled or failed outgoing mail keeps its record (recipient, status, error; the
 * message itself is erased when it finishes) this long: a month answers "did it go out, why did
 * it fail" and covers late bounces, like the 30 days undelivered forwards are kept.
 */
export const FINISHED_EMAIL_JOB_DAYS = 30

