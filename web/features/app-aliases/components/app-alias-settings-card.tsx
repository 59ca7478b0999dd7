import { AppWindow } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAppAliasSettings } from '../api/get-app-alias-settings.ts'
import { AppAliasSettingsForm } from './app-alias-settings-form.tsx'

/** Settings: how aliases made through an API key are made (issue 28). */
export function AppAliasSettingsCard() {
  const settings = useAppAliasSettings()
  return (
    <Card data-testid="app-alias-settings-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <AppWindow className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Aliases created by apps</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">
          When Bitwarden or an extension asks for a new alias without naming it, it is made on this domain, with a name of
          this form, forwarding to this address. Other confirmed targets appear here once confirmed on the dashboard.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="flex items-center gap-3 text-sm text-muted-foreground"><Spinner decorative />Loading...</div>
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(settings.error, 'Failed to load the settings')}</p>
        ) : (
          <AppAliasSettingsForm settings={settings.data} />
        )}
      </CardContent>
    </Card>
  )
}
