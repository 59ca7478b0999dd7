import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { toast } from '../../components/ui/use-toast.ts'
import { errorMessage } from '../../lib/api-client.ts'
import { useAliases } from '../../features/aliases/api/get-aliases.ts'
import { aliasAddress } from '../../features/aliases/lib/alias-state.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { ComposeForm } from '../../features/compose/components/compose-form.tsx'
import { NoAliasesNotice } from '../../features/compose/components/no-aliases-notice.tsx'
import { senderAliases } from '../../features/compose/lib/compose-form.ts'
import { replySender, senderChoices, senderMailboxes } from '../../features/compose/lib/senders.ts'
import { useEmailProviders } from '../../lib/email-providers.ts'
import { useEmailJobsInProgress } from '../../features/email-jobs/lib/email-jobs.ts'
import { queueEmail } from '../../features/email-jobs/lib/queue-email.ts'
import { sendErrorToast } from '../../features/email-jobs/lib/send-error-message.ts'
import { useEncryptionKeys } from '../../features/encryption/api/get-encryption-keys.ts'
import type { ComposeRequest } from '../../features/inbox/components/inbox-compose-context.ts'
import { withoutOwnAddresses } from '../../features/inbox/lib/reply-draft.ts'

/**
 * The inbox compose dialog (full screen on a phone): the compose form, sent from an alias
 * through the same outgoing queue as the compose page; its job is polled every 10 s.
 */
export function ComposeDialog({ request, onClose }: { request: ComposeRequest | undefined; onClose: () => void }) {
  const { user } = useAuth()
  const aliases = useAliases(request ? user?.id : undefined)
  const keys = useEncryptionKeys(request ? user?.id : undefined)
  const delivering = useEmailJobsInProgress()
  const providers = useEmailProviders()
  const mailboxes = senderMailboxes(providers.data)
  const senders = aliases.data ? senderChoices(mailboxes, senderAliases(aliases.data)) : []
  // a reply to mail addressed to one of the user's mailboxes starts from that mailbox
  const replyFrom = replySender(mailboxes, request?.initial?.receivedBy)
  // a reply all leaves out every address of the user's own, whichever From is picked
  const own = [...(providers.data ?? []).map((p) => p.email), ...(aliases.data ?? []).map(aliasAddress)]
  const initial = request?.initial?.replyAll ? withoutOwnAddresses(request.initial, own) : request?.initial
  return (
    <Dialog open={request !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-h-dvh overflow-y-auto sm:max-w-2xl max-sm:left-0 max-sm:top-0 max-sm:h-dvh max-sm:w-full max-sm:max-w-none max-sm:translate-x-0 max-sm:translate-y-0 max-sm:rounded-none"
      >
        <DialogHeader>
          <DialogTitle className="break-words">{request?.title}</DialogTitle>
          <DialogDescription>
            {mailboxes.length > 0
              ? 'Sent from one of your aliases, which keeps your real address hidden, or as one of your mailboxes.'
              : 'Sent from one of your aliases; your real address stays hidden.'}
          </DialogDescription>
        </DialogHeader>
        {request && (aliases.isPending || providers.isPending ? (
          <div className="flex justify-center py-10"><Spinner label="Loading your aliases" /></div>
        ) : aliases.isError ? (
          <p role="alert" className="text-sm text-destructive">Could not load your aliases: {errorMessage(aliases.error, 'Failed to fetch aliases')}</p>
        ) : aliases.data.length === 0 && mailboxes.length === 0 ? (
          <NoAliasesNotice />
        ) : (
          <ComposeForm
            aliases={senders}
            keys={keys.isError ? [] : keys.data}
            onSend={(job, onUndone) => queueEmail(job, request.queuedTitle, onUndone)}
            dialog={{
              initial: replyFrom ? { ...initial, fromAlias: replyFrom } : initial,
              delivering,
              onQueued: onClose,
              onFailed: (error) => toast(sendErrorToast(error.message)),
            }}
          />
        ))}
      </DialogContent>
    </Dialog>
  )
}
