// The one retention policy every static page states. Change a number here, and only here.
export const ACCOUNT_ERASURE_DAYS = 30
export const SECURITY_LOG_RETENTION_DAYS = 30
export const GDPR_RESPONSE_DAYS = 30
export const MINIMUM_AGE = 13
export const NEXT_TRANSPARENCY_REPORT = 'August 2026'
export const LAUNCH_DATE = 'January 2025'
