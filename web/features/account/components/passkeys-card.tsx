import { useState, type FormEvent } from 'react'
import { Fingerprint } from 'lucide-react'
import type { PasskeyInfo } from '../../../../shared/account-protection-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys.ts'

const failed = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error, 'Please try again'), variant: 'destructive' })

function PasskeyRow({ passkey }: { passkey: PasskeyInfo }) {
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(passkey.name)
  const rename = useRenamePasskey()
  const remove = useRemovePasskey()
  const save = (event: FormEvent) => {
    event.preventDefault()
    rename.mutate({ id: passkey.id, name }, { onSuccess: () => setRenaming(false), onError: failed('Not Renamed') })
  }
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
      {renaming ? (
        <form onSubmit={save} className="flex flex-wrap items-end gap-2" aria-label={`Rename ${passkey.name}`}>
          <FormField label="New name" name="name" value={name} onChange={(e) => setName(e.target.value)} />
          <Button type="submit" size="sm" disabled={rename.isPending}>Save</Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setRenaming(false)}>Cancel</Button>
        </form>
      ) : (
        <div className="grid gap-0.5">
          <span className="font-medium">{passkey.name}</span>
          <span className="text-xs text-muted-foreground">Added {passkey.createdAt} · {passkey.lastUsedAt ? `Last used ${passkey.lastUsedAt}` : 'Not used yet'}</span>
        </div>
      )}
      {!renaming && (
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => setRenaming(true)} aria-label={`Rename ${passkey.name}`}>Rename</Button>
          <Button variant="outline" size="sm" onClick={() => remove.mutate(passkey.id, { onError: failed('Not Removed'), onSuccess: () => toast({ title: 'Passkey Removed', description: `"${passkey.name}" can no longer sign in.` }) })} disabled={remove.isPending} aria-label={`Remove ${passkey.name}`}>
            Remove
          </Button>
        </div>
      )}
    </li>
  )
}

/** Settings → Security: "Passkeys". */
export function PasskeysCard() {
  const passkeys = usePasskeys()
  const add = useAddPasskey()
  const [name, setName] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    add.mutate(name.trim() || 'Passkey', {
      onSuccess: (p) => {
        setName('')
        toast({ title: 'Passkey Added', description: `"${p.name}" can now sign in to your account.` })
      },
      onError: failed('Passkey Not Added'),
    })
  }
  return (
    <Card data-testid="passkeys-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <Fingerprint className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Passkeys</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          Sign in with your device's fingerprint, face or screen lock instead of a password. A passkey is a complete sign-in, and it
          can also answer the second step after your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {passkeys.isPending ? <Spinner /> : passkeys.isError ? (
          <p className="text-sm text-destructive">{errorMessage(passkeys.error, 'Failed to load')}</p>
        ) : passkeys.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Passkeys">
            {passkeys.data.map((p) => <PasskeyRow key={p.id} passkey={p} />)}
          </ul>
        )}
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Add a passkey">
          <FormField label="Passkey name" name="passkey-name" placeholder="Laptop, phone..." value={name} onChange={(e) => setName(e.target.value)} />
          <Button type="submit" disabled={add.isPending}>
            {add.isPending && <Spinner decorative />}
            Add Passkey
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
