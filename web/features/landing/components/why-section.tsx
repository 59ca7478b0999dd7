import { Globe, Infinity as InfinityIcon, Lock, Mails, SlidersHorizontal, Webhook } from 'lucide-react'
import { SectionHeading } from './section-heading.tsx'

const REASONS = [
  {
    icon: InfinityIcon,
    title: 'Free Forever',
    body: 'Unlimited aliases at no cost. No trial that runs out, no card on file.',
  },
  {
    icon: SlidersHorizontal,
    title: 'Full Alias Control',
    body: 'Pause, re-point, rename, annotate or delete any alias whenever you like.',
  },
  {
    icon: Globe,
    title: 'Creative Domains',
    body: 'Pick from several alias domains so your addresses do not all look alike.',
  },
  {
    icon: Webhook,
    title: 'Multiple Forwarding & Webhooks',
    body: 'One alias can deliver to several mailboxes and to HTTPS webhooks signed with HMAC-SHA256.',
  },
  {
    icon: Mails,
    title: 'One Address, Any Provider',
    body: 'Keep Gmail, Proton, Outlook or your own server. Veilmail works in front of all of them.',
  },
  {
    icon: Lock,
    title: 'End-to-End Encryption',
    body: 'Forwarded mail encrypted to your age key, decrypted only in your browser.',
  },
]

export function WhySection() {
  return (
    <section className="border-t border-border bg-muted/40" aria-labelledby="why-title">
      <div className="mx-auto max-w-6xl space-y-10 px-4 py-20 sm:px-6">
        <SectionHeading
          id="why-title"
          eyebrow="_WHY VEILMAIL"
          title="Why Veilmail"
          subtitle="Everything you expect from a privacy alias service, without the paywall."
        />
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {REASONS.map((reason) => (
            <li key={reason.title} className="flex gap-4 rounded-xl border border-border bg-card p-5 shadow-sm">
              <reason.icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <div>
                <h3 className="mb-1 font-semibold">{reason.title}</h3>
                <p className="text-sm text-muted-foreground">{reason.body}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
