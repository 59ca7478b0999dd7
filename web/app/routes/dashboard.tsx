import { useNavigate } from 'react-router-dom'
import { ShieldAlert } from 'lucide-react'
import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { DeleteAccountCard } from '../../features/account/components/delete-account-card.tsx'
import { AliasList } from '../../features/aliases/components/alias-list.tsx'
import { SmtpCredentialsPanel } from '../../features/smtp/components/smtp-credentials-panel.tsx'
import { CreateAliasForm } from '../../features/aliases/components/create-alias-form.tsx'
import { useAuth } from '../../lib/auth-context.ts'
import { UndeliveredCard } from '../../features/undelivered/components/undelivered-card.tsx'
import { ContactsPanel } from '../../features/contacts/components/contacts-panel.tsx'
import { UnsubscribeNotice } from '../../features/contacts/components/unsubscribe-notice.tsx'
import { BounceNotice } from '../../features/bounces/components/bounce-notice.tsx'

export const POST_DELETION_REDIRECT_MS = 2000

export function DashboardRoute() {
  useDocumentTitle('Dashboard')
  const { user, resetAuth } = useAuth()
  const navigate = useNavigate()

  if (!user) {
    return (
      <PageContainer>
        <div className="flex flex-col items-center gap-3 py-16 text-center">
          <ShieldAlert className="size-10 text-muted-foreground" aria-hidden="true" />
          <h1 className="text-2xl font-bold">Authentication Required</h1>
          <p className="text-muted-foreground">Please connect your wallet to access the dashboard</p>
        </div>
      </PageContainer>
    )
  }

  function handleDeleted() {
    setTimeout(() => {
      resetAuth()
      navigate('/')
    }, POST_DELETION_REDIRECT_MS)
  }

  return (
    <PageContainer>
      <PageHeader title="Email Forwarding" subtitle="Manage privacy aliases and email forwarding settings" />
      <CreateAliasForm userId={user.id} />
      <UnsubscribeNotice />
      <BounceNotice />
      <AliasList userId={user.id} parts={{ SmtpPanel: SmtpCredentialsPanel, ContactsPanel }} />
      <UndeliveredCard />
      <DeleteAccountCard onDeleted={handleDeleted} />
    </PageContainer>
  )
}
