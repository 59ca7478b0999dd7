import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { MailboxSettings } from '../../features/mailboxes/components/mailbox-settings.tsx'

/** /inbox/settings: connected IMAP accounts. */
export function InboxSettingsRoute() {
  useDocumentTitle('IMAP Account Settings')
  return (
    <PageContainer>
      <PageHeader title="IMAP Account Settings" subtitle="Connect the mailboxes whose mail Veilmail shows in your inbox" />
      <MailboxSettings />
    </PageContainer>
  )
}
