import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { errorMessage } from '../../lib/api-client.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { DecryptPanel } from '../../features/decrypt/components/decrypt-panel.tsx'
import { useEncryptionKeys } from '../../features/encryption/api/get-encryption-keys.ts'

export function DecryptRoute() {
  useDocumentTitle('Decrypt')
  const { user } = useAuth()
  const keys = useEncryptionKeys(user?.id)
  return (
    <PageContainer>
      <PageHeader title="Decrypt Messages" subtitle="Decrypt age-encrypted messages in your browser with a saved key or a private key" />
      <DecryptPanel keys={keys.data} keysError={keys.isError ? errorMessage(keys.error, 'Failed to load encryption keys') : undefined} />
    </PageContainer>
  )
}
