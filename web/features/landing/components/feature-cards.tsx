import { EyeOff, Inbox, ScrollText } from 'lucide-react'

const FEATURES = [
  {
    icon: EyeOff,
    title: 'Privacy First',
    body: 'Senders only ever see your alias. Replies and new mail go out through the alias, so your real address never travels with them.',
  },
  {
    icon: Inbox,
    title: 'Unified Inbox',
    body: 'Connect Gmail, Yahoo or any IMAP mailbox and read it here in conversations. Star, read and delete sync back to the mailbox; replies go out from your alias.',
  },
  {
    icon: ScrollText,
    title: 'Zero Logs Policy',
    body: 'We never log message content, subjects or addresses. For each alias we keep five counters: forwarded, replied, dropped, dropped as spam, failed.',
  },
]

export function FeatureCards() {
  return (
    <section className="border-y border-border bg-muted/40" aria-label="Features">
      <div className="mx-auto grid max-w-6xl gap-4 px-4 py-16 sm:px-6 md:grid-cols-3">
        {FEATURES.map((feature) => (
          <article key={feature.title} className="rounded-xl border border-border bg-card p-6 shadow-sm">
            <div className="mb-4 inline-flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground">
              <feature.icon className="size-5" aria-hidden="true" />
            </div>
            <h3 className="mb-2 text-lg font-semibold">{feature.title}</h3>
            <p className="text-sm text-muted-foreground">{feature.body}</p>
          </article>
        ))}
      </div>
    </section>
  )
}
