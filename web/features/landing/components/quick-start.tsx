import { SectionHeading } from './section-heading.tsx'

const STEPS = [
  {
    title: 'Sign Up',
    body: 'With an e-mail and password, a Google account or a Solana wallet. No phone number, no real name.',
  },
  {
    title: 'Create Alias',
    body: 'Choose a name and a domain, enter where mail should go. Your first alias takes about 30 seconds.',
  },
  {
    title: 'Send & Receive',
    body: 'Mail to the alias arrives in your inbox. Reply or write new mail through the alias to stay anonymous.',
  },
]

export function QuickStart() {
  return (
    <section className="mx-auto max-w-6xl space-y-10 px-4 py-20 sm:px-6" aria-labelledby="quick-start-title">
      <SectionHeading
        id="quick-start-title"
        eyebrow="_HOW IT WORKS"
        title="How It Works in 3 Steps"
        subtitle="From sign-up to your first private message in under a minute."
      />
      <ol className="grid gap-6 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <li key={step.title} className="flex flex-col items-center gap-3 text-center">
            <span className="flex size-12 items-center justify-center rounded-full border-2 border-primary font-mono text-lg font-bold text-primary">
              {index + 1}
            </span>
            <h3 className="text-lg font-semibold">{step.title}</h3>
            <p className="max-w-xs text-sm text-muted-foreground">{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}
