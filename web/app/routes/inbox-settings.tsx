import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

/** /inbox/settings: connected IMAP accounts. */
export function InboxSettingsRoute() {
  useDocumentTitle('Inbox')
  return (
    <PageContainer>
      <PageHeader title="Inbox" />
    </PageContainer>
  )
}
