import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

/** /inbox/:emailId: one message or conversation. */
export function InboxEmailRoute() {
  useDocumentTitle('Inbox')
  return (
    <PageContainer>
      <PageHeader title="Inbox" />
    </PageContainer>
  )
}
