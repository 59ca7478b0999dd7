import { useEffect, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { Archive, ArrowLeft, Forward, Mail, Pencil, Printer, Reply, ReplyAll, Trash2 } from 'lucide-react'
import type { EmailDetailView, EmailListView } from '../../../../shared/email-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card } from '../../../components/ui/card.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { moveEmails, toastWithUndo, useDeleteEmails } from '../api/delete-emails.ts'
import { refetchMail } from '../api/each-email.ts'
import { useArchiveFolders, useDraftsFolders, useTrashFolders } from '../api/trash-folders.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { useQueryClient } from '@tanstack/react-query'
import { useEmail } from '../api/get-email.ts'
import { useFlagEmails } from '../api/update-email-flags.ts'
import { groupConversations, initiallyExpanded } from '../lib/conversations.ts'
import { rememberOpened } from '../lib/keyboard-row.ts'
import { emailsQueryKey, type EmailsPage } from '../api/get-emails.ts'
import { CONVERSATION_DELETE_FAILED, CONVERSATION_DELETED, EMAIL_DELETE_FAILED, EMAIL_DELETED, READ_FAILED, STAR_FAILED, UNREAD_FAILED } from '../lib/inbox-toasts.ts'
import { inboxSearch, readInboxView } from '../lib/inbox-view.ts'
import { editDraft, forwardDraft, replyAllDraft, replyDraft, type QuotedEmail } from '../lib/reply-draft.ts'
import { ConversationMessage } from './conversation-message.tsx'
import { useOpenCompose } from './inbox-compose-context.ts'
import { MessageBody } from './message-body.tsx'
import { MessageHeader } from './message-header.tsx'
import { ShortcutKeys } from './shortcut-keys.tsx'

/**
 * The text the reader saw, for the quote: the text body, or the HTML's text (parsed inert, never
 * rendered; its event handlers cut first, as parsing one logs a CSP violation: lib/event-handler-attributes.ts).
 */
async function quotedEmail(email: EmailDetailView): Promise<QuotedEmail> {
  if (email.body.trim() || !email.html) return { ...email, text: email.body.trim() ? email.body : '' }
  const { withoutEventHandlers } = await import('../../../lib/event-handler-attributes.ts')
  return { ...email, text: new DOMParser().parseFromString(withoutEventHandlers(email.html), 'text/html').body.textContent ?? '' }
}

function ActionButton({ label, icon: Icon, onClick, disabled }: { label: string; icon: typeof Reply; onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="ghost" size="sm" onClick={onClick} disabled={disabled} aria-label={label} title={label}>
      <Icon aria-hidden="true" />
      <span className="hidden sm:inline">{label}</span>
    </Button>
  )
}

/** The detail view: one message, or a conversation (oldest first, newest and unread ones open). */
export function EmailDetail({ emailId }: { emailId: string }) {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const view = readInboxView(params)
  const backTo = `/inbox${inboxSearch(view)}`
  const email = useEmail(emailId)
  const flag = useFlagEmails()
  const remove = useDeleteEmails()
  const openCompose = useOpenCompose()
  const queryClient = useQueryClient()
  const userId = useAuth().user?.id ?? ''
  const trashFolders = useTrashFolders()
  const archiveFolders = useArchiveFolders()
  const draftsFolders = useDraftsFolders()
  const [expanded, setExpanded] = useState<ReadonlySet<string>>()
  const [confirming, setConfirming] = useState(false)

  const conversation = email.data?.conversationEmails ?? []
  const newest = conversation[conversation.length - 1]
  const newestDetail = useEmail(newest?.id ?? emailId, newest !== undefined)

  // On opening: the newest and unread messages open, then the message is read (in the unread
  // category, its conversation's other unread messages too, as the list shows conversations).
  useEffect(() => {
    if (!email.data || expanded) return
    setExpanded(initiallyExpanded(email.data.conversationEmails))
    const ids = view.category === 'unread'
      ? email.data.conversationEmails.filter((e) => !e.isRead).map((e) => e.id)
      : email.data.isRead ? [] : [email.data.id]
    if (ids.length > 0) flag.mutate({ ids, flags: { isRead: true } }, { onSuccess: (r) => r.failed.length > 0 && toast(READ_FAILED), onError: () => toast(READ_FAILED) })
  }, [email.data]) // runs until the first answer has set `expanded`: once per opened message

  if (email.isPending) {
    return (
      <Card className="flex items-center justify-center gap-3 py-16 text-sm text-muted-foreground">
        <Spinner decorative />
        Loading email...
      </Card>
    )
  }
  if (email.isError) {
    const gone = email.error instanceof ApiError && email.error.status === 404
    return (
      <Card className="grid justify-items-center gap-4 py-16 text-center text-sm text-muted-foreground">
        <p>{gone ? 'This email is no longer in your inbox.' : errorMessage(email.error, 'Failed to load the email')}</p>
        <Button asChild variant="outline"><Link to={backTo}>Back to the list</Link></Button>
      </Card>
    )
  }

  const isConversation = conversation.length > 1
  const subject = (newest ?? email.data).subject || '(no subject)'
  const star = (e: EmailListView) =>
    flag.mutate({ ids: [e.id], flags: { isStarred: !e.isStarred } }, { onSuccess: (r) => r.failed.length > 0 && toast(STAR_FAILED), onError: () => toast(STAR_FAILED) })
  const source = newestDetail.data
  const reply = async () => source && openCompose({ title: `Reply to: ${source.subject}`, queuedTitle: 'Reply sent', initial: replyDraft(await quotedEmail(source)) })
  const replyAll = async () => source && openCompose({ title: `Reply all to: ${source.subject}`, queuedTitle: 'Reply sent', initial: replyAllDraft(await quotedEmail(source)) })
  const forward = async () => source && openCompose({ title: `Forward: ${source.subject}`, queuedTitle: 'Email sent', initial: forwardDraft(await quotedEmail(source)) })

  // Mark unread: the newest message (the one opening read), then back to the list, as mail programs do
  function markUnread() {
    const id = newest?.id ?? emailId
    flag.mutate({ ids: [id], flags: { isRead: false } }, {
      onSuccess: (r) => {
        if (r.failed.length > 0) return toast(UNREAD_FAILED)
        navigate(backTo)
      },
      onError: () => toast(UNREAD_FAILED),
    })
  }

  // j/k: the next or previous conversation of the list this message was opened from (read from its
  // cache, never fetched: opened from a link, there is no list and the keys do nothing)
  function goToNeighbour(step: number) {
    const list = queryClient.getQueryData<EmailsPage>(emailsQueryKey(userId, view))
    const rows = groupConversations(list?.emails ?? [])
    const at = rows.findIndex((c) => c.threadId === email.data!.threadId)
    const next = at < 0 ? undefined : rows[at + step]
    if (!next) return
    rememberOpened(next.threadId)
    navigate(`/inbox/${next.latestEmail.id}${inboxSearch(view)}`)
  }

  // Archive: the message (or conversation) to its account's \Archive folder, with Undo in the toast
  const archiveFolder = archiveFolders.get(email.data.providerId)
  const canArchive = archiveFolder !== undefined && archiveFolder !== email.data.folderId
  async function archive() {
    const emails = isConversation ? conversation : [email.data!]
    try {
      const result = await moveEmails(emails, archiveFolders)
      if (result.succeeded.length === 0) throw new Error('not archived')
      toastWithUndo(queryClient, userId, { title: 'Archived', description: isConversation ? 'Conversation archived' : 'Email archived' }, result.succeeded)
      await refetchMail(queryClient, userId)
      navigate(backTo)
    } catch {
      toast({ title: 'Error', description: 'Failed to archive. Please try again.', variant: 'destructive' })
    }
  }

  // In Trash a delete is for good and asks first; elsewhere it moves to Trash with Undo in the toast.
  const inTrash = trashFolders.has(email.data.folderId)
  // a draft saved as the mailbox (or by another mail app) opens in compose to be finished
  const inDrafts = draftsFolders.has(email.data.folderId)
  const finishDraft = async () => source && openCompose({ title: `Edit draft: ${source.subject || '(no subject)'}`, queuedTitle: 'Email sent', initial: editDraft(await quotedEmail(source)) })
  async function confirmDelete() {
    const ids = isConversation ? conversation.map((e) => e.id) : [emailId]
    try {
      const result = await remove.mutateAsync(ids)
      if (result.succeeded.length === 0) throw new Error('not deleted')
      setConfirming(false)
      const done = isConversation ? CONVERSATION_DELETED : EMAIL_DELETED
      if (inTrash) toast(done)
      else toastWithUndo(queryClient, userId, done, result.succeeded)
      navigate(backTo)
    } catch {
      setConfirming(false)
      toast(isConversation ? CONVERSATION_DELETE_FAILED : EMAIL_DELETE_FAILED)
    }
  }

  return (
    <Card className="grid grid-cols-1 gap-4 p-3 sm:p-5" data-testid="email-detail">
      <div className="flex flex-wrap items-center gap-1 border-b border-border pb-3 print:hidden">
        <Button variant="ghost" size="sm" onClick={() => navigate(backTo)} aria-label="Back" title="Back">
          <ArrowLeft aria-hidden="true" />
          <span className="hidden sm:inline">Back</span>
        </Button>
        <div className="ml-auto flex flex-wrap gap-1">
          {inDrafts && <ActionButton label="Edit draft" icon={Pencil} onClick={() => void finishDraft()} disabled={!source} />}
          <ActionButton label="Reply" icon={Reply} onClick={reply} disabled={!source} />
          <ActionButton label="Reply all" icon={ReplyAll} onClick={replyAll} disabled={!source} />
          <ActionButton label="Forward" icon={Forward} onClick={forward} disabled={!source} />
          {canArchive && <ActionButton label="Archive" icon={Archive} onClick={() => void archive()} />}
          <ActionButton label="Mark unread" icon={Mail} onClick={markUnread} disabled={flag.isPending} />
          <ActionButton label="Print" icon={Printer} onClick={() => window.print()} />
          <ActionButton label="Delete" icon={Trash2} onClick={() => (inTrash ? setConfirming(true) : void confirmDelete())} disabled={remove.isPending} />
        </div>
      </div>
      <header className="grid gap-1">
        <h1 className="break-words text-xl font-semibold sm:text-2xl">{subject}</h1>
        {isConversation && <p className="text-sm text-muted-foreground">{conversation.length} messages</p>}
      </header>
      {isConversation ? (
        <ol className="grid grid-cols-1 gap-2" aria-label="Conversation">
          {conversation.map((e) => (
            <ConversationMessage
              key={e.id}
              email={e}
              expanded={expanded?.has(e.id) ?? false}
              onStar={() => star(e)}
              onToggle={() => setExpanded((prev) => {
                const next = new Set(prev)
                if (next.has(e.id)) next.delete(e.id)
                else next.add(e.id)
                return next
              })}
            />
          ))}
        </ol>
      ) : (
        <article className="grid grid-cols-1 gap-4">
          <MessageHeader email={email.data} onStar={() => star(email.data)} />
          <MessageBody email={email.data} />
        </article>
      )}
      <div className="flex flex-wrap gap-2 border-t border-border pt-3 print:hidden">
        <Button variant="outline" onClick={reply} disabled={!source}>
          <Reply aria-hidden="true" />
          Reply
        </Button>
        <Button variant="outline" onClick={replyAll} disabled={!source}>
          <ReplyAll aria-hidden="true" />
          Reply all
        </Button>
        <Button variant="outline" onClick={forward} disabled={!source}>
          <Forward aria-hidden="true" />
          Forward
        </Button>
      </div>
      <ShortcutKeys
        on={{
          next: () => goToNeighbour(1),
          previous: () => goToNeighbour(-1),
          back: () => navigate(backTo),
          reply,
          replyAll,
          forward,
          star: () => star(isConversation && newest ? newest : email.data),
          archive: () => canArchive && void archive(),
          delete: () => !remove.isPending && (inTrash ? setConfirming(true) : void confirmDelete()),
        }}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={isConversation ? 'Delete Conversation' : 'Delete Email'}
        description={isConversation
          ? `Are you sure you want to delete this entire conversation (${conversation.length} messages)? This action cannot be undone.`
          : 'Are you sure you want to delete this email? This action cannot be undone.'}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
    </Card>
  )
}
