import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

export function DecryptRoute() {
  useDocumentTitle('Decrypt')
  return (
    <PageContainer>
      <PageHeader title="Decrypt Messages" />
    </PageContainer>
  )
}
