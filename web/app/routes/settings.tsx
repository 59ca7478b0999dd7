import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { EncryptionKeysCard } from '../../features/encryption/components/encryption-keys-card.tsx'
import { ApiKeysCard } from '../../features/api-keys/components/api-keys-card.tsx'
import { AppAliasSettingsCard } from '../../features/app-aliases/components/app-alias-settings-card.tsx'

export function SettingsRoute() {
  useDocumentTitle('Settings')
  const { user } = useAuth()
  return (
    <PageContainer>
      <PageHeader title="Settings" subtitle="Your encryption keys, API keys for your apps, and how apps create aliases" />
      {user && <EncryptionKeysCard userId={user.id} />}
      {user && <ApiKeysCard />}
      {user && <AppAliasSettingsCard />}
    </PageContainer>
  )
}
