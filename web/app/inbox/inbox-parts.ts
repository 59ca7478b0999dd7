import type { InboxParts } from '../../features/inbox/components/inbox-parts.ts'
import { ComposeDialog } from './compose-dialog.tsx'
import { EncryptedBlock } from './encrypted-block.tsx'

/** The inbox's compose dialog and age-block widget, built from the compose and decrypt features. */
export const inboxParts: InboxParts = { ComposeDialog, EncryptedBlock }
