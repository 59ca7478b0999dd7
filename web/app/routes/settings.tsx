import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { EncryptionKeysCard } from '../../features/encryption/components/encryption-keys-card.tsx'
import { ApiKeysCard } from '../../features/api-keys/components/api-keys-card.tsx'
import { AppAliasSettingsCard } from '../../features/app-aliases/components/app-alias-settings-card.tsx'
import { TwoFactorCard } from '../../features/account/components/two-factor-card.tsx'
import { SessionsCard } from '../../features/account/components/sessions-card.tsx'
import { PasskeysCard } from '../../features/account/components/passkeys-card.tsx'
import { ChangePasswordCard } from '../../features/account/components/change-password-card.tsx'
import { DomainsCard } from '../../features/domains/components/domains-card.tsx'
import { SubdomainCard } from '../../features/domains/components/subdomain-card.tsx'
import { SenderBlockSettingsCard } from '../../features/contacts/components/sender-block-settings-card.tsx'
import { BounceSettingsCard } from '../../features/bounces/components/bounce-settings-card.tsx'

export function SettingsRoute() {
  useDocumentTitle('Settings')
  const { user } = useAuth()
  return (
    <PageContainer>
      <PageHeader title="Settings" subtitle="Your encryption keys, account security, API keys for your apps, how apps create aliases, and your own domains" />
      {user && <EncryptionKeysCard userId={user.id} />}
      <section aria-labelledby="security-heading" className="grid gap-6">
        <h2 id="security-heading" className="text-xl font-semibold tracking-tight">Security</h2>
        <TwoFactorCard />
        <PasskeysCard />
        <SessionsCard />
        {user?.authMethod === 'email' && <ChangePasswordCard />}
        {user && <ApiKeysCard userId={user.id} />}
      </section>
      {user && <AppAliasSettingsCard />}
      {user && <SenderBlockSettingsCard />}
      {user && <BounceSettingsCard />}
      {user && <DomainsCard />}
      {user && <SubdomainCard />}
    </PageContainer>
  )
}
