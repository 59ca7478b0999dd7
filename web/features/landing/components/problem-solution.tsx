import { CircleCheck, CircleX } from 'lucide-react'
import { SectionHeading } from './section-heading.tsx'

const PROBLEMS = [
  'Every sign-up copies your real address into another database.',
  'Breaches and data brokers link that address across every site you use.',
  'Spam follows you for years, because changing your address is painful.',
  'Your provider can read every message it stores for you.',
]

const SOLUTIONS = [
  'A separate alias for every site, so you always know who leaked it.',
  'Pause or delete an alias and the mail stops at once.',
  'Reply through the alias: the other side never learns your real address.',
  'age encryption, so only your private key can open forwarded mail.',
]

export function ProblemSolution() {
  return (
    <section className="mx-auto max-w-6xl space-y-10 px-4 py-20 sm:px-6" aria-labelledby="problem-title">
      <SectionHeading
        id="problem-title"
        eyebrow="_PROBLEM / SOLUTION"
        title="Your email address is your identity online"
        subtitle="Hand out aliases instead, and take that identity back."
      />
      <div className="grid gap-4 md:grid-cols-2">
        <article className="rounded-xl border border-destructive/30 bg-destructive/5 p-6">
          <h3 className="mb-4 font-mono text-sm font-semibold tracking-widest text-destructive">THE PROBLEM</h3>
          <ul className="space-y-3">
            {PROBLEMS.map((item) => (
              <li key={item} className="flex gap-3 text-sm">
                <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </article>
        <article className="rounded-xl border border-primary/30 bg-accent/60 p-6">
          <h3 className="mb-4 font-mono text-sm font-semibold tracking-widest text-primary">THE SOLUTION</h3>
          <ul className="space-y-3">
            {SOLUTIONS.map((item) => (
              <li key={item} className="flex gap-3 text-sm">
                <CircleCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </article>
      </div>
    </section>
  )
}
