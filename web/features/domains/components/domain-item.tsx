import { RefreshCw, Trash2 } from 'lucide-react'
import type { DomainView } from '../../../../shared/domain-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { cn } from '../../../lib/cn.ts'
import { useCheckDomain } from '../api/check-domain.ts'
import { CatchAllSettings } from './catch-all-settings.tsx'
import { DomainRecordRow } from './domain-record-row.tsx'

/** A domain: its status, the records to publish and the Check DNS button. */
export function DomainItem({ domain, onRemove }: { domain: DomainView; onRemove: () => void }) {
  const check = useCheckDomain()
  const broken = domain.records.filter((r) => r.state === 'missing' || r.state === 'wrong')

  function handleCheck() {
    check.mutate(domain.id, {
      onSuccess: (checked) => {
        const bad = checked.records.filter((r) => r.state !== 'ok').length
        toast({ title: checked.status === 'active' ? 'Domain active' : 'Not verified yet', description: bad ? `${bad} of ${checked.records.length} records are not right yet. DNS changes can take a while to show.` : 'Every record is published.' })
      },
      onError: (error) => toast({ title: 'Check failed', description: errorMessage(error, 'Failed to check the DNS records'), variant: 'destructive' }),
    })
  }

  return (
    <li className="grid gap-3 rounded-xl border border-border p-4" data-testid="domain-item" aria-label={domain.domain}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <h3 className="font-mono text-base font-semibold">{domain.domain}</h3>
          <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', domain.status === 'active' ? 'bg-primary/15 text-primary' : 'bg-muted text-muted-foreground')} data-testid="domain-status">
            {domain.status === 'active' ? 'Active' : 'Pending verification'}
          </span>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={handleCheck} disabled={check.isPending}>
            <RefreshCw aria-hidden="true" className={cn(check.isPending && 'animate-spin')} />
            {check.isPending ? 'Checking...' : 'Check DNS'}
          </Button>
          <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove ${domain.domain}`}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        {domain.status === 'active'
          ? 'Aliases can be made on this domain from the dashboard.'
          : 'Publish the records below at your DNS host, then check. The ownership record makes the domain active.'}
        {domain.checkedAt && <> Last checked {new Date(domain.checkedAt).toLocaleString()}.</>}
        {domain.status === 'active' && broken.length > 0 && <> Records that are missing or wrong are your DNS host's to fix: mail the MX record does not bring us cannot reach your aliases.</>}
      </p>
      {domain.status === 'active' && <CatchAllSettings domain={domain} />}
      <ul className="grid gap-2" aria-label={`Records for ${domain.domain}`}>
        {domain.records.map((r) => <DomainRecordRow key={r.purpose} record={r} />)}
      </ul>
    </li>
  )
}
