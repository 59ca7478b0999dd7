import { useState, type FormEvent } from 'react'
import { AtSign } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import { useChooseUsername, useUsername } from '../api/username.ts'

/** Settings: the personal subdomain (issue 29), chosen once. */
export function SubdomainCard() {
  const username = useUsername()
  const choose = useChooseUsername()
  const [name, setName] = useState('')
  const [error, setError] = useState<string>()

  function handleChoose(event: FormEvent) {
    event.preventDefault()
    setError(undefined)
    choose.mutate(name, {
      onError: (e) => setError(e instanceof ApiError && e.errors?.username?.[0] ? e.errors.username[0] : errorMessage(e, 'Failed to choose the username')),
    })
  }

  return (
    <Card data-testid="subdomain-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <AtSign className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Personal subdomain</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          Choose a username once: then any address at your subdomain becomes an alias the first time mail comes to it,
          forwarded to your account address. Aliases made this way are marked on the dashboard; delete one and it refuses mail from then on.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {username.data?.subdomain ? (
          <p className="text-sm">
            Give out <code className="font-mono" data-testid="subdomain">anything@{username.data.subdomain}</code>
          </p>
        ) : (
          <form onSubmit={handleChoose} className="flex flex-wrap items-end gap-3" noValidate>
            <div className="grid min-w-56 flex-1 gap-1.5">
              <Label htmlFor="subdomain-username">Username</Label>
              <Input id="subdomain-username" value={name} onChange={(e) => setName(e.target.value)} maxLength={32} aria-invalid={Boolean(error)} />
            </div>
            <Button type="submit" disabled={choose.isPending || !name.trim() || username.isPending}>Choose</Button>
            {error && <p role="alert" className="basis-full text-sm text-destructive">{error}</p>}
          </form>
        )}
      </CardContent>
    </Card>
  )
}
