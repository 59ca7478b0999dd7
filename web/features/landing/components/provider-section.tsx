import { AtSign, Forward, KeyRound, Inbox } from 'lucide-react'
import { SectionHeading } from './section-heading.tsx'

const STEPS = [
  {
    icon: AtSign,
    title: 'Create an alias',
    body: 'Pick any name on one of our domains. Give every website its own address.',
  },
  {
    icon: Forward,
    title: 'Point it at your inbox',
    body: 'Forward to one or more real mailboxes at any provider, or to a webhook.',
  },
  {
    icon: KeyRound,
    title: 'Add your age key',
    body: 'With a default key set, forwarded mail is encrypted before it leaves our servers.',
  },
  {
    icon: Inbox,
    title: 'Read and reply',
    body: 'Decrypt in your browser and reply through the alias: your real address stays hidden.',
  },
]

/** "Keep Your Provider Add Encryption" followed by the four-step How It Works. */
export function ProviderSection() {
  return (
    <section className="mx-auto max-w-6xl space-y-20 px-4 py-20 sm:px-6" aria-labelledby="keep-provider-title">
      <div className="grid items-center gap-10 lg:grid-cols-2">
        <div className="space-y-5">
          <p className="font-mono text-xs font-semibold tracking-widest text-primary">_NO MIGRATION</p>
          <h2 id="keep-provider-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Keep Your Provider <span className="block text-primary">Add Encryption</span>
          </h2>
          <p className="text-lg text-muted-foreground text-pretty">
            You don't have to move your mail, learn a new app or tell your contacts about a new address. Veilmail sits in
            front of the inbox you already have and adds what it is missing: aliases that hide your real address and age
            encryption that only your key can open.
          </p>
          <p className="text-muted-foreground">
            It forwards to Gmail, Outlook, Proton, Yahoo or any other mailbox that receives e-mail.
          </p>
        </div>
        <div className="rounded-xl border border-border bg-card p-5 font-mono text-sm shadow-sm" aria-label="How a message travels">
          <div className="mb-4 flex gap-1.5" aria-hidden="true">
            <span className="size-2.5 rounded-full bg-muted-foreground/30" />
            <span className="size-2.5 rounded-full bg-muted-foreground/30" />
            <span className="size-2.5 rounded-full bg-muted-foreground/30" />
          </div>
          <ol className="space-y-3">
            <li><span className="text-primary">→</span> shop sends mail to <span className="font-semibold">your alias</span></li>
            <li><span className="text-primary">→</span> Veilmail encrypts it to <span className="font-semibold">your age key</span></li>
            <li><span className="text-primary">→</span> it lands in <span className="font-semibold">the inbox you already use</span></li>
            <li><span className="text-primary">→</span> the message is deleted from our spool</li>
          </ol>
        </div>
      </div>

      <div className="space-y-10">
        <SectionHeading
          eyebrow="_HOW IT WORKS"
          title="How It Works"
          subtitle="Four steps from a leaky address to private, encrypted mail."
        />
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-xl border border-border bg-card p-6 shadow-sm">
              <span className="absolute right-5 top-5 font-mono text-xs text-muted-foreground">0{index + 1}</span>
              <step.icon className="mb-4 size-6 text-primary" aria-hidden="true" />
              <h3 className="mb-2 font-semibold">{step.title}</h3>
              <p className="text-sm text-muted-foreground">{step.body}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  )
}
