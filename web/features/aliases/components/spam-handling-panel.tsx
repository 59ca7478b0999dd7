import { ShieldAlert } from 'lucide-react'
import { SPAM_HANDLINGS, type AliasView, type SpamHandling } from '../../../../shared/alias-schemas.ts'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { useAliasSetting } from './use-alias-setting.ts'
import { aliasAddress } from '../lib/alias-state.ts'

const LABELS: Record<SpamHandling, { option: string; done: string }> = {
  tag: { option: 'Forward it, marked in its headers', done: 'Spam is forwarded, marked X-Spam-Status: Yes.' },
  'tag-subject': { option: 'Forward it, with [SPAM] before the subject', done: 'Spam is forwarded with [SPAM] before its subject.' },
  drop: { option: 'Drop it and count it', done: 'Spam to this alias is dropped, kept nowhere and counted.' },
}

/**
 * What becomes of mail the spam filter (rspamd, at the MX) calls spam, per alias (issue 30).
 * Mail it rejects outright is refused before it is accepted, whatever is chosen here.
 */
export function SpamHandlingPanel({ alias }: { alias: AliasView }) {
  const { update, save } = useAliasSetting(alias)
  const headingId = `spam-handling-${alias.id}`
  // shows the new choice while it is saved (the list refetches before the mutation settles)
  const value = update.isPending && update.variables?.changes.spamHandling ? update.variables.changes.spamHandling : alias.spamHandling

  function change(spamHandling: SpamHandling) {
    save({ spamHandling }, { title: 'Spam Handling Saved', description: LABELS[spamHandling].done })
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4" data-testid="spam-handling-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <ShieldAlert aria-hidden="true" className="size-4 text-primary" />
          <h3 id={headingId} className="text-sm font-semibold">
            Spam
          </h3>
        </div>
        <NativeSelect
          className="w-full sm:w-80"
          value={value}
          disabled={update.isPending}
          onChange={(event) => change(event.target.value as SpamHandling)}
          aria-label={`What becomes of spam sent to ${aliasAddress(alias)}`}
        >
          {SPAM_HANDLINGS.map((h) => (
            <option key={h} value={h}>
              {LABELS[h].option}
            </option>
          ))}
        </NativeSelect>
      </div>
      <p className="max-w-3xl text-xs text-muted-foreground">
        Where the server runs the spam filter (rspamd), every message is scored as it arrives: mail it rejects is
        refused before it is accepted, and forwarded mail carries its verdict in the X-Spam-Status and X-Spam-Score
        headers, for your mail program's filters. Here you choose what happens to mail it marks as spam. Dropped
        spam is kept nowhere; only the count under the alias remains.
      </p>
    </section>
  )
}
