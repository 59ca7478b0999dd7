import { useState, type FormEvent } from 'react'
import { Ban } from 'lucide-react'
import type { SenderBlockSettingsView } from '../../../../shared/sender-block-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSenderBlockSettings } from '../api/get-sender-block-settings.ts'
import { useSaveSenderBlockSettings } from '../api/save-sender-block-settings.ts'

function SenderBlockSettingsForm({ settings }: { settings: SenderBlockSettingsView }) {
  const save = useSaveSenderBlockSettings()
  const [form, setForm] = useState(settings)

  function handleSubmit(event: FormEvent) {
    event.preventDefault()
    save.mutate(form, {
      onSuccess: () => toast({ title: 'Settings saved', description: 'Forwards and blocked senders follow these settings from now on.' }),
      onError: (error) => toast({ title: 'Save failed', description: errorMessage(error, 'Failed to save the settings'), variant: 'destructive' }),
    })
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4 sm:grid-cols-3">
      <div className="grid gap-1.5">
        <Label htmlFor="unsubscribe-action">Unsubscribe in your mail client</Label>
        <NativeSelect id="unsubscribe-action" value={form.unsubscribeAction} onChange={(e) => setForm({ ...form, unsubscribeAction: e.target.value as SenderBlockSettingsView['unsubscribeAction'] })}>
          <option value="pause">Pauses the alias</option>
          <option value="block">Blocks the sender</option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="blocked-reply">Mail from a blocked sender</Label>
        <NativeSelect id="blocked-reply" value={form.blockedReply} onChange={(e) => setForm({ ...form, blockedReply: e.target.value as SenderBlockSettingsView['blockedReply'] })}>
          <option value="refuse">Refused (550, the sender is told)</option>
          <option value="drop">Dropped silently</option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="block-link">Block link in forwards</Label>
        <NativeSelect id="block-link" value={form.blockLink ? 'on' : 'off'} onChange={(e) => setForm({ ...form, blockLink: e.target.value === 'on' })}>
          <option value="on">On (X-Veilmail-Block-Sender header)</option>
          <option value="off">Off</option>
        </NativeSelect>
      </div>
      <div className="sm:col-span-3">
        <Button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving...' : 'Save'}</Button>
      </div>
    </form>
  )
}

/** Settings: issue 30's three choices. */
export function SenderBlockSettingsCard() {
  const settings = useSenderBlockSettings()
  return (
    <Card data-testid="sender-block-settings-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <Ban className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Blocked senders and Unsubscribe</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          Every forward carries an Unsubscribe link your mail client shows (Gmail, Apple Mail) and a header with a link that
          blocks its sender. They work without signing in, once each; the dashboard tells you and can undo it. Block and
          unblock senders under each alias's Contacts on the dashboard.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="flex items-center gap-3 text-sm text-muted-foreground"><Spinner decorative />Loading...</div>
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(settings.error, 'Failed to load the settings')}</p>
        ) : (
          <SenderBlockSettingsForm settings={settings.data} />
        )}
      </CardContent>
    </Card>
  )
}
