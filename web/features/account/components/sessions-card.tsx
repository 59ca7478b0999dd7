import { MonitorSmartphone } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useEndOtherSessions, useEndSession } from '../api/end-sessions.ts'
import { useSessions } from '../api/get-sessions.ts'

/** Settings → Security: "Where you're signed in". */
export function SessionsCard() {
  const sessions = useSessions()
  const end = useEndSession()
  const endOthers = useEndOtherSessions()
  const failed = (error: unknown) => toast({ title: 'Not Signed Out', description: errorMessage(error, 'Please try again'), variant: 'destructive' })
  const others = sessions.data?.filter((s) => !s.current).length ?? 0

  return (
    <Card data-testid="sessions-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <MonitorSmartphone className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Where You're Signed In</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          Each session shows the browser and system it signed in with and its days. No IP address is kept.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isPending ? <Spinner /> : sessions.isError ? (
          <p className="text-sm text-destructive">{errorMessage(sessions.error, 'Failed to load')}</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Sessions">
            {sessions.data.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="grid gap-0.5">
                  <span className="font-medium">
                    {s.browser} on {s.os}
                    {s.current && <span className="ml-2 rounded bg-primary/15 px-1.5 py-0.5 text-xs text-primary">This device</span>}
                  </span>
                  <span className="text-xs text-muted-foreground">Signed in {s.createdAt} · Last active {s.lastSeenAt}</span>
                </div>
                {!s.current && (
                  <Button variant="outline" size="sm" onClick={() => end.mutate(s.id, { onError: failed })} disabled={end.isPending} aria-label={`Sign out ${s.browser} on ${s.os}`}>
                    Sign Out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {others > 0 && (
          <Button variant="outline" className="justify-self-start" onClick={() => endOthers.mutate(undefined, { onError: failed, onSuccess: (r) => toast({ title: 'Signed Out Elsewhere', description: `${r.ended} other session${r.ended === 1 ? '' : 's'} ended.` }) })} disabled={endOthers.isPending}>
            Sign Out Everywhere Else
          </Button>
        )}
      </CardContent>
    </Card>
  )
}
