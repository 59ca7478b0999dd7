import { useState, type FormEvent } from 'react'
import { Globe } from 'lucide-react'
import { MAX_CUSTOM_DOMAINS, type DomainView } from '../../../../shared/domain-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { useAddDomain } from '../api/add-domain.ts'
import { useCustomDomains } from '../api/get-custom-domains.ts'
import { useRemoveDomain } from '../api/remove-domain.ts'
import { DomainItem } from './domain-item.tsx'

/** Settings → Domains (issue 29): the user's own domains, the records to publish, the DNS check. */
export function DomainsCard() {
  const domains = useCustomDomains()
  const adding = useAddDomain()
  const removal = useRemoveDomain()
  const [name, setName] = useState('')
  const [error, setError] = useState<string>()
  const [removing, setRemoving] = useState<DomainView>()

  function handleAdd(event: FormEvent) {
    event.preventDefault()
    setError(undefined)
    adding.mutate(name, {
      onSuccess: () => setName(''),
      onError: (e) => setError(e instanceof ApiError && e.errors?.domain?.[0] ? e.errors.domain[0] : errorMessage(e, 'Failed to add the domain')),
    })
  }

  return (
    <Card data-testid="domains-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <Globe className="size-5 text-primary" aria-hidden="true" />
          <CardTitle id="domains-heading">Domains</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          Use your own domain for aliases. Add it, publish the records shown at your DNS host, then check. DNS changes
          usually show within minutes, sometimes hours. At most {MAX_CUSTOM_DOMAINS} domains.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={handleAdd} className="flex flex-wrap items-end gap-3" noValidate>
          <div className="grid min-w-56 flex-1 gap-1.5">
            <Label htmlFor="custom-domain">Domain</Label>
            <Input id="custom-domain" value={name} onChange={(e) => setName(e.target.value)} placeholder="example.com" aria-invalid={Boolean(error)} aria-describedby={error ? 'custom-domain-error' : undefined} />
          </div>
          <Button type="submit" disabled={adding.isPending || !name.trim()}>
            {adding.isPending ? 'Adding...' : 'Add domain'}
          </Button>
          {error && <p id="custom-domain-error" role="alert" className="basis-full text-sm text-destructive">{error}</p>}
        </form>
        {domains.isPending ? (
          <div className="flex items-center justify-center gap-3 py-6 text-sm text-muted-foreground">
            <Spinner decorative />
            Loading domains...
          </div>
        ) : domains.isError ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(domains.error, 'Failed to load domains')}</p>
        ) : domains.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No domains yet.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Your domains">
            {domains.data.map((d) => <DomainItem key={d.id} domain={d} onRemove={() => setRemoving(d)} />)}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title="Remove domain"
        description={<>Aliases on {removing ? <strong>{removing.domain}</strong> : 'this domain'} stop receiving mail. To add the domain again you will have to verify it again.</>}
        confirmLabel="Remove domain"
        pendingLabel="Removing..."
        pending={removal.isPending}
        onConfirm={() =>
          removing &&
          removal.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(undefined)
              toast({ title: 'Domain removed', description: `${removing.domain} is no longer yours on Veilmail.` })
            },
            onError: (e) => toast({ title: 'Remove failed', description: errorMessage(e, 'Failed to remove the domain'), variant: 'destructive' }),
          })
        }
      />
    </Card>
  )
}
