import { AtSign } from 'lucide-react'
import { Link } from 'react-router-dom'
import { Button } from '../../../components/ui/button.tsx'

/** Compose needs an alias to send from. */
export function NoAliasesNotice() {
  return (
    <section
      aria-labelledby="no-aliases-title"
      className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-border px-4 py-10 text-center"
    >
      <AtSign className="size-8 text-muted-foreground" aria-hidden="true" />
      <div className="grid gap-1">
        <h2 id="no-aliases-title" className="font-semibold">
          You need an alias to send email
        </h2>
        <p className="text-sm text-muted-foreground">Mail you write here goes out from one of your aliases, never from your real address.</p>
      </div>
      <ol className="grid list-inside list-decimal gap-1 text-left text-sm text-muted-foreground">
        <li>Create an alias in the Dashboard</li>
        <li>Come back here to compose your email</li>
      </ol>
      <p className="max-w-md text-xs text-muted-foreground">
        SMTP credentials are only needed to send from a mail app such as Thunderbird; this page does not need them.
      </p>
      <Button asChild>
        <Link to="/dashboard">Go to Dashboard</Link>
      </Button>
    </section>
  )
}
