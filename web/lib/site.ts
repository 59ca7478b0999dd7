// Facts about the product shown in several places; change them here only.
export const APP_VERSION = '1.0.24'
export const CONTACT_EMAIL = 'privacy@veilmail.io'
export const FEEDBACK_URL = 'https://github.com/veilmail/veilmail/issues'

export const EXTERNAL_LINKS = {
  documentation: 'https://github.com/veilmail/veilmail#readme',
  sourceCode: 'https://github.com/veilmail/veilmail',
  social: 'https://mastodon.social/@veilmail',
  video: 'https://www.youtube.com/@veilmail',
  reviews: 'https://www.trustpilot.com/review/veilmail.io',
  age: 'https://age-encryption.org',
} as const
