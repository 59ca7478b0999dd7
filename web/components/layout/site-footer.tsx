import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { ArrowUpRight } from 'lucide-react'
import { Logo } from '../logo.tsx'
import { APP_VERSION, EXTERNAL_LINKS, FEEDBACK_URL } from '../../lib/site.ts'

interface FooterLink {
  label: string
  to?: string
  href?: string
}

const COLUMNS: Array<{ title: string; links: FooterLink[] }> = [
  {
    title: 'COMPANY',
    links: [
      { label: '_ABOUT US', to: '/about' },
      { label: '_TRANSPARENCY REPORT', to: '/transparency' },
      { label: '_MASTODON', href: EXTERNAL_LINKS.social },
      { label: '_YOUTUBE', href: EXTERNAL_LINKS.video },
    ],
  },
  {
    title: 'LEGAL',
    links: [
      { label: '_PRIVACY POLICY', to: '/privacy' },
      { label: '_TERMS OF SERVICE', to: '/terms' },
      { label: '_GDPR COMPLIANT', to: '/gdpr' },
    ],
  },
  {
    title: 'REVIEWS',
    links: [
      { label: '_TRUSTPILOT', href: EXTERNAL_LINKS.reviews },
      { label: '_FEEDBACK', href: FEEDBACK_URL },
    ],
  },
  {
    title: 'OPEN SOURCE',
    links: [
      { label: '_DOCUMENTATION', href: EXTERNAL_LINKS.documentation },
      { label: '_AGE ENCRYPTION', href: EXTERNAL_LINKS.age },
    ],
  },
]

function FooterItem({ link }: { link: FooterLink }): ReactNode {
  const className =
    'inline-flex items-center gap-1 font-mono text-xs tracking-wide text-muted-foreground transition-colors hover:text-primary'
  if (link.to) {
    return (
      <Link to={link.to} className={className}>
        {link.label}
      </Link>
    )
  }
  return (
    <a href={link.href} target="_blank" rel="noopener noreferrer" className={className}>
      {link.label}
      <ArrowUpRight className="size-3" aria-hidden="true" />
    </a>
  )
}

export function SiteFooter() {
  return (
    <footer className="border-t border-border bg-muted/40 print:hidden" data-testid="site-footer">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_repeat(4,1fr)]">
        <div className="col-span-2 space-y-3 md:col-span-1">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">Secure inbox with aliases and end-to-end encryption.</p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title} className="space-y-3">
            <h2 className="font-mono text-xs font-semibold tracking-widest text-foreground">{column.title}</h2>
            <ul className="space-y-2">
              {column.links.map((link) => (
                <li key={link.label}>
                  <FooterItem link={link} />
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-5 font-mono text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© 2025 Veilmail. All rights reserved.</p>
          <div className="flex items-center gap-4">
            <span>Made in Lithuania</span>
            <span aria-hidden="true">·</span>
            <span>{`Version ${APP_VERSION}`}</span>
          </div>
        </div>
      </div>
    </footer>
  )
}
