import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { Inbox, MailPlus } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Card } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { DESKTOP_QUERY, useMediaQuery } from '../../../hooks/use-media-query.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { moveEmails, toastWithUndo, useDeleteEmails } from '../api/delete-emails.ts'
import { removeCachedEmails } from '../api/email-cache.ts'
import { refetchMail } from '../api/each-email.ts'
import { useArchiveFolders, useTrashFolders } from '../api/trash-folders.ts'
import { useQueryClient } from '@tanstack/react-query'
import { LazyConfirmDialog } from '../../../components/ui/lazy-confirm-dialog.tsx'
import { useEmailProviders } from '../../../lib/email-providers.ts'
import { useEmails } from '../api/get-emails.ts'
import { prefetchConversation } from '../api/prefetch-conversation.ts'
import { useSyncAccount } from '../api/sync-account.ts'
import { useFlagEmails } from '../api/update-email-flags.ts'
import { groupConversations, pageRange, type Conversation } from '../lib/conversations.ts'
import { BULK_DELETE_ERROR, BULK_UPDATE_ERROR, bulkDeleteToast, bulkReadToast, READ_FAILED, REFRESHED, STAR_FAILED, unreadSummary } from '../lib/inbox-toasts.ts'
import { folderName, inboxSearch, PAGE_SIZE, readInboxView } from '../lib/inbox-view.ts'
import { EmailListToolbar } from './email-list-toolbar.tsx'
import { InboxSearchBox, UnsearchedNotice } from './inbox-search-box.tsx'
import { EmailRow } from './email-row.tsx'
import { usePreloadAfterPaint } from './inbox-parts.ts'
import { ShortcutKeys } from './shortcut-keys.tsx'
import { lastOpenedThread, rememberOpened } from '../lib/keyboard-row.ts'

// With no account the first visit goes to the settings (nothing to show without one); later visits show the empty state.
let sentToSettings = false

function EmptyState({ icon, text, action }: { icon?: ReactNode; text: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-4 px-4 py-16 text-center text-sm text-muted-foreground" data-testid="list-empty">
      {icon}
      <p>{text}</p>
      {action}
    </div>
  )
}

/** The list view: the current category of the chosen account, one row per conversation. */
export function EmailList() {
  const userId = useAuth().user?.id
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const view = readInboxView(params)
  const mobile = !useMediaQuery(DESKTOP_QUERY)
  const providers = useEmailProviders()
  const emails = useEmails(userId, view)
  const flag = useFlagEmails()
  const remove = useDeleteEmails()
  const sync = useSyncAccount()
  const conversations = useMemo(() => groupConversations(emails.data?.emails ?? []), [emails.data])
  usePreloadAfterPaint(conversations.length > 0)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  // the keyboard's row (j/k), focused so the ring shows where it is
  const [current, setCurrent] = useState<string | undefined>(lastOpenedThread)
  const trashFolders = useTrashFolders()
  const queryClient = useQueryClient()
  useEffect(() => setSelected(new Set()), [view.account, view.folder, view.category, view.page, view.q])

  useEffect(() => {
    if (providers.data?.length === 0 && !sentToSettings) {
      sentToSettings = true
      navigate('/inbox/settings', { replace: true })
    }
  }, [providers.data, navigate])

  const chosen = conversations.filter((c) => selected.has(c.threadId))
  // in "All accounts", each row says which account it came to
  const accountOf = view.account === 'all' && (providers.data?.length ?? 0) > 1 ? new Map(providers.data!.map((p) => [p.id, p.email])) : undefined
  const idsOf = (list: Conversation[]) => list.flatMap((c) => c.emails.map((e) => e.id))
  const go = (patch: Partial<typeof view>) => navigate(`/inbox${inboxSearch({ ...view, ...patch })}`)

  function star(conversation: Conversation) {
    const starred = conversation.emails.filter((e) => e.isStarred)
    const ids = starred.length > 0 ? starred.map((e) => e.id) : [conversation.latestEmail.id]
    flag.mutate({ ids, flags: { isStarred: starred.length === 0 } }, {
      onSuccess: (result) => result.failed.length > 0 && toast(STAR_FAILED),
      onError: () => toast(STAR_FAILED),
    })
  }

  // Archive: to each account's \Archive folder, with Undo in the toast
  const archiveFolders = useArchiveFolders()
  const archivable = (list: Conversation[]) => list.length > 0 && list.every((c) => c.emails.every((e) => archiveFolders.has(e.providerId) && archiveFolders.get(e.providerId) !== e.folderId))
  const canArchive = archivable(chosen)
  // Move to: any other folder of the selection's one account
  const chosenAccounts = new Set(chosen.flatMap((c) => c.emails.map((e) => e.providerId)))
  const chosenFolders = new Set(chosen.flatMap((c) => c.emails.map((e) => e.folderId)))
  const moveTargets = chosenAccounts.size === 1
    ? providers.data?.find((p) => chosenAccounts.has(p.id))?.folders.filter((f) => !chosenFolders.has(f.id)).map((f) => ({ id: f.id, name: folderName(f.path) }))
    : undefined
  async function archiveSelected(folderOf: ReadonlyMap<string, string> = archiveFolders, verb = 'archived', list = chosen) {
    const emails = list.flatMap((c) => c.emails)
    await removeCachedEmails(queryClient, userId ?? '', new Set(emails.map((e) => e.id)))
    try {
      const result = await moveEmails(emails, folderOf)
      const n = result.succeeded.length
      const done = n === 0
        ? { title: 'Move failed', description: 'Failed to move the selected emails.', variant: 'destructive' as const }
        : { title: verb === 'archived' ? 'Archived' : 'Moved', description: `${n} email${n === 1 ? '' : 's'} ${verb}${result.failed.length ? `, ${result.failed.length} failed` : ''}` }
      if (n === 0) toast(done)
      else toastWithUndo(queryClient, userId ?? '', done, result.succeeded)
      if (n > 0) setSelected(new Set())
    } catch {
      toast(BULK_UPDATE_ERROR)
    } finally {
      await refetchMail(queryClient, userId ?? '')
    }
  }

  /** Mark Unread: every read message of the chosen conversations is unread again (\Seen cleared on the server). */
  function markUnread(list: Conversation[]) {
    const ids = list.flatMap((c) => c.emails.filter((e) => e.isRead).map((e) => e.id))
    if (ids.length === 0) return setSelected(new Set())
    flag.mutate({ ids, flags: { isRead: false } }, {
      onSuccess: (result) => {
        toast(bulkReadToast(result.succeeded.length, result.failed.length, false))
        if (result.succeeded.length > 0) setSelected(new Set())
      },
      onError: () => toast(BULK_UPDATE_ERROR),
    })
  }

  function markRead(list: Conversation[], bulk: boolean) {
    const ids = list.flatMap((c) => c.emails.filter((e) => !e.isRead).map((e) => e.id))
    if (ids.length === 0) {
      if (bulk) setSelected(new Set())
      return
    }
    flag.mutate({ ids, flags: { isRead: true } }, {
      onSuccess: (result) => {
        toast(bulkReadToast(result.succeeded.length, result.failed.length))
        if (result.succeeded.length > 0 && bulk) setSelected(new Set())
      },
      onError: () => toast(bulk ? BULK_UPDATE_ERROR : READ_FAILED),
    })
  }

  // In Trash a delete is for good and asks first; elsewhere it moves to Trash with Undo in the toast.
  const inTrash = (list: Conversation[]) => list.some((c) => c.emails.some((e) => trashFolders.has(e.folderId)))
  const chosenInTrash = inTrash(chosen)
  function deleteSelected(list = chosen) {
    setConfirmingDelete(false)
    const forGood = inTrash(list)
    remove.mutate(idsOf(list), {
      onSuccess: (result) => {
        const done = bulkDeleteToast(result.succeeded.length, result.failed.length)
        if (forGood || result.succeeded.length === 0) toast(done)
        else toastWithUndo(queryClient, userId ?? '', done, result.succeeded)
        if (result.succeeded.length > 0) setSelected(new Set())
      },
      onError: () => toast(BULK_DELETE_ERROR),
    })
  }

  function refresh() {
    if (view.account === 'all') {
      void emails.refetch().then(() => toast(REFRESHED))
      return
    }
    sync.mutate(view.account, {
      onSuccess: (job) => {
        if (job.status === 'failed') toast({ title: 'Sync failed', description: job.error ?? 'The mailbox could not be synced.', variant: 'destructive' })
        else toast({ title: 'Sync completed', description: job.syncResult.newEmailsCount > 0 ? `${job.syncResult.newEmailsCount} new emails synced successfully.` : 'Email data refreshed successfully.' })
      },
      onError: (error) => toast({ title: 'Sync failed', description: errorMessage(error, 'The mailbox could not be synced.'), variant: 'destructive' }),
    })
  }

  // the rows are conversations: the pager counts and pages conversations too
  const total = emails.data?.conversations ?? 0
  const shown = conversations.length
  const pager =
    view.category === 'unread'
      ? { text: unreadSummary(conversations.length) }
      : {
          // a search's total is not counted when its page came from the newest mail: "of many", as long as pages are full
          text: emails.data?.more ? `${view.page * PAGE_SIZE + 1}-${view.page * PAGE_SIZE + shown} of many` : pageRange(view.page, PAGE_SIZE, shown, Math.max(total, view.page * PAGE_SIZE + shown)),
          hasPrevious: view.page > 0,
          hasNext: emails.data?.more ? shown === PAGE_SIZE : (view.page + 1) * PAGE_SIZE < total,
          onPrevious: () => go({ page: view.page - 1 }),
          onNext: () => go({ page: view.page + 1 }),
        }

  // Keys act on the selected conversations when there are any, else on the keyboard's row.
  const at = conversations.findIndex((c) => c.threadId === current)
  const currentConversation = at >= 0 ? conversations[at] : undefined
  const move = (step: number) => {
    if (conversations.length === 0) return
    setCurrent(conversations[at < 0 ? 0 : Math.min(conversations.length - 1, Math.max(0, at + step))].threadId)
  }
  function open(c: Conversation) {
    rememberOpened(c.threadId)
    prefetchConversation(queryClient, c)
    navigate(`/inbox/${c.latestEmail.id}${inboxSearch(view)}`)
  }
  const target = chosen.length > 0 ? chosen : currentConversation ? [currentConversation] : []
  // the keyboard's row leaving the list: the next one (or the one before) takes its place
  function stepPast(leaving: Conversation[]) {
    if (!currentConversation || !leaving.includes(currentConversation)) return
    const gone = new Set(leaving.map((c) => c.threadId))
    setCurrent((conversations.slice(at + 1).find((c) => !gone.has(c.threadId)) ?? conversations.slice(0, at).reverse().find((c) => !gone.has(c.threadId)))?.threadId)
  }
  const keys = {
    next: () => move(1),
    previous: () => move(-1),
    open: () => currentConversation && open(currentConversation),
    star: () => currentConversation && star(currentConversation),
    archive: () => {
      if (!archivable(target)) return
      stepPast(target)
      void archiveSelected(archiveFolders, 'archived', target)
    },
    delete: () => {
      if (target.length === 0) return
      // in Trash it asks first, as the button does: the question names the selection
      if (inTrash(target)) {
        setSelected(new Set(target.map((c) => c.threadId)))
        setConfirmingDelete(true)
        return
      }
      stepPast(target)
      deleteSelected(target)
    },
  }

  let body: ReactNode
  // rows show as soon as they come: the accounts (for "connect one" and the rows' account labels) may come after
  if (emails.isPending || (providers.isPending && !emails.data?.emails.length)) {
    body = <EmptyState icon={<Spinner decorative />} text="Loading emails..." />
  } else if (providers.data?.length === 0) {
    body = (
      <EmptyState
        icon={<MailPlus className="size-8" aria-hidden="true" />}
        text="Connect an email account to see your inbox"
        action={<Button asChild><Link to="/inbox/settings">Add Email Account</Link></Button>}
      />
    )
  } else if (emails.isError) {
    body = <EmptyState text={errorMessage(emails.error, 'Failed to load emails')} action={<Button variant="outline" onClick={() => void emails.refetch()}>Try again</Button>} />
  } else if (conversations.length === 0) {
    body = <EmptyState icon={<Inbox className="size-8" aria-hidden="true" />} text={view.q ? 'No emails match your search.' : view.category === 'unread' ? 'No unread conversations' : 'No emails found. Try syncing your accounts.'} />
  } else {
    body = (
      <ul aria-label="Emails">
        {conversations.map((c) => (
          <EmailRow
            key={c.threadId}
            conversation={c}
            mobile={mobile}
            selected={selected.has(c.threadId)}
            onSelect={(on) => setSelected((prev) => {
              const next = new Set(prev)
              if (on) next.add(c.threadId)
              else next.delete(c.threadId)
              return next
            })}
            onStar={() => star(c)}
            onOpen={() => open(c)}
            current={c.threadId === current}
            account={accountOf?.get(c.latestEmail.providerId)}
          />
        ))}
      </ul>
    )
  }

  const folder = view.folder ? providers.data?.flatMap((p) => p.folders).find((f) => f.id === view.folder) : undefined
  const heading = view.q ? 'Search results' : folder ? folderName(folder.path) : { inbox: 'Inbox', unread: 'Unread', starred: 'Starred' }[view.category]
  return (
    <Card className="overflow-hidden">
      <h1 className="sr-only">{heading}</h1>
      <InboxSearchBox view={view} />
      <UnsearchedNotice accounts={emails.data?.unsearched} />
      <EmailListToolbar
        rows={conversations.length}
        selected={chosen.length}
        onSelectAll={(all) => setSelected(new Set(all ? conversations.map((c) => c.threadId) : []))}
        refreshing={sync.isPending || emails.isFetching}
        onRefresh={refresh}
        onDelete={() => (chosenInTrash ? setConfirmingDelete(true) : deleteSelected())}
        onMarkRead={() => markRead(chosen, true)}
        onMarkUnread={() => markUnread(chosen)}
        onArchive={canArchive ? () => void archiveSelected() : undefined}
        moveTargets={moveTargets}
        onMove={(folderId) => void archiveSelected(new Map([[[...chosenAccounts][0], folderId]]), 'moved')}
        onMarkAllRead={() => markRead(conversations, false)}
        pager={pager}
      />
      {body}
      <ShortcutKeys on={keys} />
      <LazyConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Delete Emails"
        description={`Are you sure you want to delete ${idsOf(chosen).length === 1 ? 'this email' : `these ${idsOf(chosen).length} emails`} for good? This action cannot be undone.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => deleteSelected()}
      />
    </Card>
  )
}
