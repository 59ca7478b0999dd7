// How a connected account reads on the settings page (README "Connecting a mailbox" and
// "Outlook (OAuth2)"): its state in words, the progress of a sync, the folders' counts, and how often the
// page asks the server again while something is under way.
import type { EmailProviderView, FolderView, ProviderKind, SyncJobView } from '../../../../shared/email-provider-schemas.ts'
import { isOutlookExpired } from '../../../../shared/outlook-connection.ts'
import type { ToastInput } from '../../../components/ui/use-toast.ts'

/** Job status is polled every 10 seconds (README "Connecting a mailbox"). */
export const SYNC_POLL_MS = 10_000

export const PROVIDER_LABELS: Record<ProviderKind, string> = { gmail: 'Gmail', outlook: 'Outlook', yahoo: 'Yahoo', other: 'Custom IMAP' }

export type AccountStatus =
  | { kind: 'connecting'; text: string }
  | { kind: 'syncing'; text: string; done: number; total: number; percent: number }
  | { kind: 'stalled'; text: string }
  | { kind: 'idle'; text: string }
  | { kind: 'outlook-expired'; text: string }
  | { kind: 'error'; text: string }

export function accountStatus(p: Pick<EmailProviderView, 'state' | 'progressDone' | 'progressTotal' | 'lastError'> & { stalled?: boolean }): AccountStatus {
  if (p.state === 'connecting') return { kind: 'connecting', text: 'Connecting…' }
  // nothing runs it now (its process stopped): not a frozen "Syncing…"
  if (p.state === 'syncing' && p.stalled) {
    const at = p.progressTotal > 0 ? ` at ${p.progressDone} of ${Math.max(p.progressTotal, p.progressDone)}` : ''
    return { kind: 'stalled', text: `Sync interrupted${at}. It starts again by itself within a minute.` }
  }
  if (p.state === 'syncing') {
    const total = Math.max(p.progressTotal, p.progressDone)
    const percent = total > 0 ? Math.floor((p.progressDone / total) * 100) : 0
    return { kind: 'syncing', text: total > 0 ? `Syncing… ${p.progressDone} of ${total}` : 'Syncing…', done: p.progressDone, total, percent }
  }
  if (p.state === 'error' && isOutlookExpired(p.lastError)) return { kind: 'outlook-expired', text: 'Outlook Authentication Expired' }
  if (p.state === 'error') return { kind: 'error', text: `Error: ${p.lastError ?? 'The last sync failed.'}` }
  return { kind: 'idle', text: 'Up to date' }
}

/** A sync is under way: the page keeps asking for news. */
export const inProgress = (p: Pick<EmailProviderView, 'state'>) => p.state === 'connecting' || p.state === 'syncing'

/** refetchInterval of a sync job: every 10 s until it is done or failed. */
export const syncJobPollInterval = (job: Pick<SyncJobView, 'status'> | undefined): number | false =>
  job && (job.status === 'done' || job.status === 'failed') ? false : SYNC_POLL_MS

/** refetchInterval of the account list: every 10 s while an account connects or syncs. */
export const providersPollInterval = (providers: Pick<EmailProviderView, 'state'>[] | undefined): number | false =>
  providers?.some(inProgress) ? SYNC_POLL_MS : false

const DATE_TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' })

export const lastSyncText = (lastSyncAt: string | null) => (lastSyncAt ? `Last sync: ${DATE_TIME.format(new Date(lastSyncAt))}` : 'Not synced yet')

const SPECIAL_NAMES: Record<string, string> = { '\\Sent': 'Sent', '\\Archive': 'Archive', '\\Drafts': 'Drafts', '\\Trash': 'Trash', '\\Junk': 'Junk', '\\All': 'All Mail' }

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`

export interface FolderLine {
  path: string
  name: string
  counts: string
  enabled: boolean
}

/** INBOX (synced) first; a folder that is only listed says how many messages the server had at the last sync. */
export function folderLines(folders: FolderView[]): FolderLine[] {
  return [...folders]
    .sort((a, b) => Number(b.path === 'INBOX') - Number(a.path === 'INBOX') || Number(b.enabled) - Number(a.enabled) || a.path.localeCompare(b.path))
    .map((f) => ({
      path: f.path,
      enabled: f.enabled,
      name: f.path === 'INBOX' ? 'Inbox' : (f.specialUse && SPECIAL_NAMES[f.specialUse]) || f.path,
      counts: f.enabled ? `${plural(f.stored, 'message')}, ${f.unread.toLocaleString('en-US')} unread` : f.messageCount > 0 ? `${plural(f.messageCount, 'message')}, not synced` : 'Not synced',
    }))
}

/** "Sync completed": "{n} new emails synced successfully." or "Email data refreshed successfully." */
export const syncCompletedText = (newEmailsCount: number) =>
  newEmailsCount > 0 ? `${newEmailsCount} new emails synced successfully.` : 'Email data refreshed successfully.'

/** What a finished job was for: adding the account (its first login), its login edited, or a sync. */
export type SyncJobPurpose = 'connect' | 'reconnect' | 'sync'

/** The toast a finished job announces; none while it runs. */
export function syncJobToast(purpose: SyncJobPurpose, job: Pick<SyncJobView, 'status' | 'error' | 'syncResult'>): ToastInput | undefined {
  if (job.status === 'done' && purpose === 'reconnect') return { title: 'Email account connected', description: 'The new settings work: the account is syncing again.' }
  if (job.status === 'failed' && purpose === 'reconnect') return { title: 'Connection failed', description: job.error ?? 'The mail server could not be reached.', variant: 'destructive' }
  if (job.status === 'done') {
    return purpose === 'connect'
      ? { title: 'Email account added', description: 'Your email account has been connected successfully.' }
      : { title: 'Sync completed', description: syncCompletedText(job.syncResult.newEmailsCount) }
  }
  if (job.status === 'failed') {
    const description = job.error ?? 'The mail server could not be reached.'
    return { title: purpose === 'connect' ? 'Failed to add email account' : 'Sync failed', description, variant: 'destructive' }
  }
  return undefined
}
