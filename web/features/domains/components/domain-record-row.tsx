import { Copy } from 'lucide-react'
import type { DomainRecordView, RecordPurpose, RecordState } from '../../../../shared/domain-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { copyText } from '../../../lib/copy-text.ts'
import { cn } from '../../../lib/cn.ts'

const PURPOSE: Record<RecordPurpose, { title: string; why: string }> = {
  ownership: { title: 'Ownership', why: 'Shows us the domain is yours. Needed before aliases can be made on it.' },
  mx: { title: 'Mail (MX)', why: 'Sends mail for the domain to Veilmail. Without it no alias on the domain receives mail.' },
  spf: { title: 'SPF', why: 'Names Veilmail\'s servers as allowed to send mail from the domain.' },
  dkim: { title: 'DKIM', why: 'The public half of the key made for this domain alone, which Veilmail signs its mail with.' },
  dmarc: { title: 'DMARC (suggested)', why: 'Tells receivers what to do with mail that fails SPF and DKIM. Any policy you publish is accepted.' },
}

const STATE: Record<RecordState, { label: string; className: string }> = {
  unchecked: { label: 'Not checked', className: 'bg-muted text-muted-foreground' },
  ok: { label: 'Found', className: 'bg-primary/15 text-primary' },
  missing: { label: 'Missing', className: 'bg-destructive/10 text-destructive' },
  wrong: { label: 'Wrong value', className: 'bg-destructive/10 text-destructive' },
}

function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex min-w-0 items-start gap-2">
      <code className="min-w-0 flex-1 rounded border border-border bg-background px-2 py-1 font-mono text-xs [overflow-wrap:anywhere]">{value}</code>
      <Button type="button" variant="outline" size="sm" aria-label={`Copy ${label}`} onClick={() => copyText(value, label)}>
        <Copy aria-hidden="true" />
      </Button>
    </div>
  )
}

/** One record to publish: where, what, why, and what the last check saw. */
export function DomainRecordRow({ record }: { record: DomainRecordView }) {
  const purpose = PURPOSE[record.purpose]
  const state = STATE[record.state]
  return (
    <li className="grid gap-2 rounded-lg border border-border p-3" data-testid={`record-${record.purpose}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium">
          {purpose.title} <span className="font-mono text-xs text-muted-foreground">{record.type}</span>
        </p>
        <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', state.className)} data-testid={`state-${record.purpose}`}>
          {state.label}
        </span>
      </div>
      <p className="text-xs text-muted-foreground">{purpose.why}</p>
      <div className="grid gap-1.5 sm:grid-cols-[5rem_1fr] sm:items-start">
        <span className="text-xs text-muted-foreground">Name</span>
        <CopyField label={`${purpose.title} name`} value={record.name} />
        <span className="text-xs text-muted-foreground">Value</span>
        <CopyField label={`${purpose.title} value`} value={record.value} />
      </div>
      {record.state === 'wrong' && (
        <div className="text-xs" data-testid={`found-${record.purpose}`}>
          <p className="text-muted-foreground">Found instead:</p>
          <ul className="grid gap-1">
            {record.found.map((value, i) => <li key={i} className="font-mono [overflow-wrap:anywhere]">{value}</li>)}
          </ul>
        </div>
      )}
    </li>
  )
}
