import { useState, type FormEvent } from 'react'
import type { AliasNameForm, AppAliasSettingsView } from '../../../../shared/app-alias-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSaveAppAliasSettings } from '../api/save-app-alias-settings.ts'

const ACCOUNT = '' // the select's value for "the account's verified address"

export function AppAliasSettingsForm({ settings }: { settings: AppAliasSettingsView }) {
  const save = useSaveAppAliasSettings()
  const [domain, setDomain] = useState(settings.domain)
  const [nameForm, setNameForm] = useState<AliasNameForm>(settings.nameForm)
  const [target, setTarget] = useState(settings.forwardTo ?? ACCOUNT)
  const others = settings.targets.filter((t) => t !== settings.accountEmail)

  function handleSubmit(event: FormEvent) {
    event.preventDefault()
    save.mutate({ domain, nameForm, forwardTo: target === ACCOUNT ? null : target }, {
      onSuccess: () => toast({ title: 'Settings saved', description: 'Aliases made by apps use these settings from now on.' }),
      onError: (error) => toast({ title: 'Save failed', description: errorMessage(error, 'Failed to save the settings'), variant: 'destructive' }),
    })
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4 sm:grid-cols-3">
      <div className="grid gap-1.5">
        <Label htmlFor="app-alias-domain">Domain</Label>
        <NativeSelect id="app-alias-domain" value={domain} onChange={(e) => setDomain(e.target.value)}>
          {settings.domains.map((d) => <option key={d} value={d}>{d}</option>)}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="app-alias-form">Name</Label>
        <NativeSelect id="app-alias-form" value={nameForm} onChange={(e) => setNameForm(e.target.value as AliasNameForm)}>
          <option value="words">Random words (clever.otter42)</option>
          <option value="characters">Random characters (k3v9q2x7m1pa)</option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="app-alias-target">Forwards to</Label>
        <NativeSelect id="app-alias-target" value={target} onChange={(e) => setTarget(e.target.value)}>
          {settings.accountEmail && <option value={ACCOUNT}>{settings.accountEmail} (your account)</option>}
          {!settings.accountEmail && <option value={ACCOUNT} disabled>Choose a confirmed target</option>}
          {others.map((t) => <option key={t} value={t}>{t}</option>)}
        </NativeSelect>
      </div>
      <div className="sm:col-span-3">
        <Button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving...' : 'Save'}</Button>
      </div>
    </form>
  )
}
