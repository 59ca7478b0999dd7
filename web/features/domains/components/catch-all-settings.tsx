import { useId, useState, type FormEvent } from 'react'
import type { DomainView } from '../../../../shared/domain-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { Switch } from '../../../components/ui/switch.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { useUpdateDomain } from '../api/update-domain.ts'

/** Catch-all of an active domain: off by default; on, unknown addresses become aliases on first use. */
export function CatchAllSettings({ domain }: { domain: DomainView }) {
  const id = useId()
  const update = useUpdateDomain()
  const [target, setTarget] = useState(domain.defaultTarget ?? '')
  const [error, setError] = useState<string>()
  const fail = (e: unknown) => toast({ title: 'Not saved', description: errorMessage(e, 'Failed to change the catch-all'), variant: 'destructive' })

  function saveTarget(event: FormEvent) {
    event.preventDefault()
    setError(undefined)
    update.mutate({ id: domain.id, defaultTarget: target.trim() || null }, {
      onSuccess: () => toast({ title: 'Saved', description: 'Catch-all target saved.' }),
      onError: (e) => (e instanceof ApiError && e.errors?.defaultTarget ? setError(e.errors.defaultTarget[0]) : fail(e)),
    })
  }

  return (
    <div className="grid gap-3 rounded-lg border border-border p-3" data-testid="catch-all">
      <div className="flex items-center justify-between gap-3">
        <div>
          <Label htmlFor={`${id}-switch`}>Catch-all</Label>
          <p className="text-xs text-muted-foreground">
            Mail to any address on {domain.domain} that is not an alias yet makes that alias on first use. New ones are limited per hour against address guessing.
          </p>
        </div>
        <Switch id={`${id}-switch`} checked={domain.catchAll} disabled={update.isPending} onCheckedChange={(catchAll) => update.mutate({ id: domain.id, catchAll }, { onError: fail })} />
      </div>
      {domain.catchAll && (
        <form onSubmit={saveTarget} className="flex flex-wrap items-end gap-2" noValidate>
          <div className="grid min-w-56 flex-1 gap-1.5">
            <Label htmlFor={`${id}-target`}>Forward new aliases to</Label>
            <Input id={`${id}-target`} value={target} onChange={(e) => setTarget(e.target.value)} placeholder="Your account address" aria-invalid={Boolean(error)} />
          </div>
          <Button type="submit" variant="outline" disabled={update.isPending}>Save</Button>
          {error && <p role="alert" className="basis-full text-xs text-destructive">{error}</p>}
        </form>
      )}
    </div>
  )
}
