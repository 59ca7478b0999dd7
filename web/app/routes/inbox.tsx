import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

/** /inbox: the message list. */
export function InboxRoute() {
  useDocumentTitle('Inbox')
  return (
    <PageContainer>
      <PageHeader title="Inbox" />
    </PageContainer>
  )
}
