import type { ReactNode } from 'react'

interface ProsePageProps {
  eyebrow: string
  title: string
  lead: ReactNode
  meta?: ReactNode
  children: ReactNode
}

/** Layout of the static pages (about, legal, transparency): readable measure, numbered sections. */
export function ProsePage({ eyebrow, title, lead, meta, children }: ProsePageProps) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="mb-12 space-y-4 border-b border-border pb-10">
        <p className="font-mono text-xs font-semibold tracking-widest text-primary">{eyebrow}</p>
        <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
        <div className="text-lg text-muted-foreground text-pretty">{lead}</div>
        {meta && <p className="font-mono text-xs text-muted-foreground">{meta}</p>}
      </header>
      <div className="space-y-12">{children}</div>
    </article>
  )
}

export function ProseSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4">
      <h2 className="text-2xl font-semibold tracking-tight">{title}</h2>
      <div className="space-y-4 leading-7 text-foreground/85 [&_a]:font-medium [&_a]:text-primary [&_a]:underline-offset-4 hover:[&_a]:underline [&_li]:pl-1 [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
        {children}
      </div>
    </section>
  )
}
