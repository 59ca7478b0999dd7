import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { EncryptionKeysCard } from '../../features/encryption/components/encryption-keys-card.tsx'

export function SettingsRoute() {
  useDocumentTitle('Settings')
  const { user } = useAuth()
  return (
    <PageContainer>
      <PageHeader title="Settings" subtitle="Generate and manage the encryption keys that protect your mail" />
      {user && <EncryptionKeysCard userId={user.id} />}
    </PageContainer>
  )
}
