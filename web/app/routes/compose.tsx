import { PageContainer, PageHeader } from '../../components/layout/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { errorMessage } from '../../lib/api-client.ts'
import { useAliases } from '../../features/aliases/api/get-aliases.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { ComposeForm } from '../../features/compose/components/compose-form.tsx'
import { NoAliasesNotice } from '../../features/compose/components/no-aliases-notice.tsx'
import { senderAliases } from '../../features/compose/lib/compose-form.ts'
import { senderChoices, senderMailboxes } from '../../features/compose/lib/senders.ts'
import { useEmailProviders } from '../../lib/email-providers.ts'
import { queueEmail } from '../../features/email-jobs/lib/queue-email.ts'
import { useEncryptionKeys } from '../../features/encryption/api/get-encryption-keys.ts'

export function ComposeRoute() {
  useDocumentTitle('Compose')
  const { user } = useAuth()
  const aliases = useAliases(user?.id)
  const keys = useEncryptionKeys(user?.id)
  // Without the key list (not loaded, or the call failed) the user can still type a key to share.
  const ownKeys = keys.isError ? [] : keys.data
  const mailboxes = senderMailboxes(useEmailProviders().data)

  return (
    <PageContainer>
      <PageHeader title="Compose Email" subtitle="Send end-to-end encrypted email from your aliases, without revealing your real address" />
      {aliases.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your aliases" />
        </div>
      ) : aliases.isError ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/40 p-4 text-sm">
          <span>Could not load your aliases: {errorMessage(aliases.error, 'Failed to fetch aliases')}</span>
          <Button variant="outline" size="sm" onClick={() => void aliases.refetch()}>
            Try again
          </Button>
        </div>
      ) : aliases.data.length === 0 && mailboxes.length === 0 ? (
        <NoAliasesNotice />
      ) : (
        <ComposeForm aliases={senderChoices(mailboxes, senderAliases(aliases.data))} keys={ownKeys} onSend={(request, onUndone) => queueEmail(request, 'Email sent', onUndone)} />
      )}
    </PageContainer>
  )
}
