import { Link, useSearchParams } from 'react-router-dom'
import { Archive, FileText, Folder, HardDrive, Inbox, Mail, MessageSquareHeart, PenLine, Plus, Send, Settings, ShieldAlert, Star, Trash2, type LucideIcon } from 'lucide-react'
import type { EmailProviderView, FolderView } from '../../../../shared/email-provider-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { cn } from '../../../lib/cn.ts'
import { FEEDBACK_URL } from '../../../lib/site.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { useEmailCounts } from '../api/get-email-counts.ts'
import { useEmailProviders } from '../../../lib/email-providers.ts'
import { storageText } from '../lib/mail-dates.ts'
import { folderName, inboxSearch, readInboxView, type InboxCategory, type InboxView } from '../lib/inbox-view.ts'
import { NEW_EMAIL, useOpenCompose } from './inbox-compose-context.ts'

const ITEM = 'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm transition-colors'

function CategoryLink({ view, category, icon: Icon, label, count }: { view: InboxView; category: InboxCategory; icon: LucideIcon; label: string; count?: number }) {
  const active = view.category === category && !view.folder
  return (
    <Link
      to={`/inbox${inboxSearch({ ...view, folder: undefined, category, page: 0, q: undefined })}`}
      aria-current={active ? 'page' : undefined}
      className={cn(ITEM, active ? 'bg-accent font-medium text-accent-foreground' : 'text-muted-foreground hover:bg-muted hover:text-foreground')}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span className="flex-1">{label}</span>
      {count !== undefined && count > 0 && <span className="font-mono text-xs tabular-nums" data-testid={`count-${category}`}>{count}</span>}
    </Link>
  )
}

/** The inbox sidebar: Compose, the three categories with counts, storage, settings, accounts. */
export function InboxSidebar() {
  const userId = useAuth().user?.id
  const [params] = useSearchParams()
  const view = readInboxView(params)
  const counts = useEmailCounts(userId, view.account).data
  const providers = useEmailProviders().data
  const openCompose = useOpenCompose()

  return (
    <nav aria-label="Mailbox" className="grid gap-5">
      <Button onClick={() => openCompose(NEW_EMAIL)} className="w-full">
        <PenLine aria-hidden="true" />
        Compose
      </Button>
      <div className="grid gap-0.5">
        <CategoryLink view={view} category="inbox" icon={Inbox} label="Inbox" count={counts?.unread} />
        <CategoryLink view={view} category="unread" icon={Mail} label="Unread" count={counts?.unread} />
        <CategoryLink view={view} category="starred" icon={Star} label="Starred" count={counts?.starred} />
      </div>
      <section aria-label="Storage" className="grid gap-1 rounded-lg border border-border bg-card p-3 text-sm">
        <p className="flex items-center gap-2 font-medium">
          <HardDrive className="size-4 text-muted-foreground" aria-hidden="true" />
          Storage
        </p>
        <p className="text-muted-foreground" data-testid="storage">
          {counts ? `${counts.total.toLocaleString('en-US')} email${counts.total === 1 ? '' : 's'} · ${storageText(counts.total)}` : '…'}
        </p>
      </section>
      <Link to="/inbox/settings" className={cn(ITEM, 'text-muted-foreground hover:bg-muted hover:text-foreground')}>
        <Settings className="size-4" aria-hidden="true" />
        Settings
      </Link>
      <section aria-labelledby="accounts-heading" className="grid gap-1">
        <h2 id="accounts-heading" className="px-3 font-mono text-xs font-semibold tracking-wide text-muted-foreground">ACCOUNTS</h2>
        {providers?.length === 0 ? (
          <Button asChild variant="outline" size="sm">
            <Link to="/inbox/settings">
              <Plus aria-hidden="true" />
              Add Email Account
            </Link>
          </Button>
        ) : (
          <ul className="grid gap-0.5">
            {providers && providers.length > 1 && (
              <li>
                <AccountLink view={view} account="all" label="All accounts" />
              </li>
            )}
            {providers?.map((p) => (
              <li key={p.id}>
                <AccountLink view={view} account={p.id} label={p.email} active={p.isActive && p.state !== 'error'} />
                <AccountFolders view={view} provider={p} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <a href={FEEDBACK_URL} target="_blank" rel="noopener noreferrer" className={cn(ITEM, 'text-xs text-muted-foreground hover:text-foreground')}>
        <MessageSquareHeart className="size-4" aria-hidden="true" />
        Feedback
      </a>
    </nav>
  )
}

function AccountLink({ view, account, label, active }: { view: InboxView; account: string; label: string; active?: boolean }) {
  const selected = view.account === account && !view.folder
  return (
    <Link
      to={`/inbox${inboxSearch({ ...view, account, folder: undefined, page: 0, q: undefined })}`}
      aria-current={selected ? 'page' : undefined}
      className={cn(ITEM, 'py-1.5', selected ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-muted hover:text-foreground')}
    >
      {active !== undefined && (
        <span
          className={cn('size-2 shrink-0 rounded-full', active ? 'bg-emerald-500' : 'bg-muted-foreground/40')}
          role="img"
          aria-label={active ? 'active' : 'inactive'}
        />
      )}
      <span className="truncate">{label}</span>
    </Link>
  )
}

const FOLDER_ICONS: Record<string, LucideIcon> = {
  '\\Inbox': Inbox, '\\Sent': Send, '\\Archive': Archive, '\\Trash': Trash2, '\\Drafts': FileText, '\\Junk': ShieldAlert,
}

/** The account's synced folders (INBOX and those turned on in the settings), each opening that folder alone, with its unread count. */
function AccountFolders({ view, provider }: { view: InboxView; provider: EmailProviderView }) {
  // INBOX first, then the others by name
  const folders = provider.folders.filter((f) => f.enabled)
    .sort((a, b) => Number(b.path.toUpperCase() === 'INBOX') - Number(a.path.toUpperCase() === 'INBOX') || a.path.localeCompare(b.path))
  if (folders.length === 0) return null
  return (
    <ul className="grid gap-0.5 pl-5" aria-label={`Folders of ${provider.email}`}>
      {folders.map((f) => <li key={f.id}><FolderLink view={view} providerId={provider.id} folder={f} /></li>)}
    </ul>
  )
}

function FolderLink({ view, providerId, folder }: { view: InboxView; providerId: string; folder: FolderView }) {
  const selected = view.folder === folder.id
  const Icon = (folder.specialUse && FOLDER_ICONS[folder.specialUse]) || (folder.path.toUpperCase() === 'INBOX' ? Inbox : Folder)
  return (
    <Link
      to={`/inbox${inboxSearch({ account: providerId, folder: folder.id, category: 'inbox', page: 0 })}`}
      aria-current={selected ? 'page' : undefined}
      className={cn(ITEM, 'py-1', selected ? 'bg-accent font-medium text-accent-foreground' : 'text-muted-foreground hover:bg-muted hover:text-foreground')}
    >
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      <span className="flex-1 truncate">{folderName(folder.path)}</span>
      {folder.unread > 0 && <span className="font-mono text-xs tabular-nums" data-testid="folder-unread">{folder.unread}</span>}
    </Link>
  )
}
