import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

export function SettingsRoute() {
  useDocumentTitle('Settings')
  return (
    <PageContainer>
      <PageHeader title="Settings" />
    </PageContainer>
  )
}
