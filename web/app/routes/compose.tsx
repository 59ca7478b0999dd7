import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

export function ComposeRoute() {
  useDocumentTitle('Compose')
  return (
    <PageContainer>
      <PageHeader title="Compose Email" />
    </PageContainer>
  )
}
