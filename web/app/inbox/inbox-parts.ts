import type { InboxParts } from '../../features/inbox/components/inbox-parts.ts'
import { loadInboxEmailPage } from '../page-preload.ts'
import { LazyComposeDialog, LazyEncryptedBlock, preloadComposeDialog } from './lazy-parts.tsx'

/** The inbox's compose dialog and age-block widget, built from the compose and decrypt features. */
export const inboxParts: InboxParts = {
  ComposeDialog: LazyComposeDialog,
  EncryptedBlock: LazyEncryptedBlock,
  // what a reader of the list opens next: the message page, the HTML sanitizer, the compose dialog
  preload() {
    loadInboxEmailPage().catch(() => {})
    import('../../lib/mail-html.ts').then((m) => m.preloadMailSanitizer()).catch(() => {})
    preloadComposeDialog()
  },
}
