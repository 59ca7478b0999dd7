// `npm run ops -- accounts`: connected mailboxes and how their sync is doing, by id and domain
// (the address itself is never printed, as the other commands print alias ids, not addresses).
import { listProviderOverview, type ProviderOverview } from '../../db/email-providers.ts'
import type { Command } from './command.ts'
import { iso, oneLine, UsageError } from './ops-context.ts'

export const accounts: Command = {
  summary: 'connected mailboxes: state, messages or sync progress, last sync, last error, whether the schedule stopped',
  usage: 'accounts [--limit N] [--json]\n  accounts whose schedule stopped (a refused login: the owner must fix it) come first, then those in error, then stalled syncs\n  (a sync whose process died: its job runs again within about 30 s)',
  options: { limit: { type: 'string' } },
  async run(ctx, values, positionals) {
    if (positionals.length) throw new UsageError(`accounts takes no arguments: ${positionals.join(' ')}`)
    const n = values.limit === undefined ? 100 : Number(values.limit)
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000')
    const rows = await listProviderOverview(ctx.sql, n)
    ctx.result(rows.map((r) => ({
      id: r.id, userId: r.userId, provider: r.provider, domain: r.domain, state: r.state,
      lastSyncAt: r.lastSyncAt?.toISOString() ?? null, lastError: r.lastError === null ? null : oneLine(r.lastError),
      messages: r.messages, progress: { done: r.progressDone, total: r.progressTotal }, stalled: r.stalled, scheduleStopped: r.scheduleStopped,
    })))
    if (rows.length === 0) return ctx.line('no connected mailboxes')
    ctx.table(rows.map((r) => ({
      id: r.id, user: r.userId, provider: r.provider, domain: r.domain, state: r.stalled ? 'stalled' : r.state, messages: messageColumn(r),
      'last sync': iso(r.lastSyncAt), schedule: r.scheduleStopped ? 'STOPPED' : 'running', 'last error': oneLine(r.lastError) || '-',
    })))
  },
}

/** A sync under way (or stalled) shows how far it got; otherwise the messages stored. */
function messageColumn(r: ProviderOverview): string {
  if (r.state === 'syncing') return `${r.progressDone}/${r.progressTotal} synced`
  return `${r.messages.toLocaleString('en-US')} stored`
}
