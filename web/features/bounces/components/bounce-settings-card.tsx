import { useState, type FormEvent } from 'react'
import { MailWarning } from 'lucide-react'
import { MAX_BOUNCE_THRESHOLD } from '../../../../shared/bounce-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useBounces, useSaveBounceThreshold } from '../api/bounces.ts'

function ThresholdForm({ threshold }: { threshold: number }) {
  const save = useSaveBounceThreshold()
  const [value, setValue] = useState(String(threshold))
  function handleSubmit(event: FormEvent) {
    event.preventDefault()
    save.mutate(Number(value), {
      onSuccess: (res) => toast({ title: 'Settings saved', description: res.message }),
      onError: (error) => toast({ title: 'Save failed', description: errorMessage(error, 'Failed to save the setting'), variant: 'destructive' }),
    })
  }
  return (
    <form onSubmit={handleSubmit} className="flex flex-wrap items-end gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor="bounce-threshold">Hard bounces in a row that stop a target</Label>
        <Input id="bounce-threshold" type="number" min={1} max={MAX_BOUNCE_THRESHOLD} step={1} required className="w-32" value={value} onChange={(e) => setValue(e.target.value)} />
      </div>
      <Button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving...' : 'Save'}</Button>
    </form>
  )
}

/** Settings (issue 30): how many refusals in a row stop forwards to one of your addresses. */
export function BounceSettingsCard() {
  const bounces = useBounces()
  return (
    <Card data-testid="bounce-settings-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <MailWarning aria-hidden="true" className="size-5" />
          <CardTitle>Bounces</CardTitle>
        </div>
        <CardDescription>
          When the server of an address you forward to refuses mail for good this many times in a row, forwards to it
          stop and wait (until their hold ends) while you fix it. Send a test mail from the alias list, or re-enable it, to
          start again. You hear of refused mail at most once a day, on the dashboard and by mail.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {bounces.data ? <ThresholdForm threshold={bounces.data.threshold} /> : <Spinner />}
      </CardContent>
    </Card>
  )
}
