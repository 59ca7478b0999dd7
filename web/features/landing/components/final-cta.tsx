import { Link } from 'react-router-dom'
import { ArrowRight } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { formatUserCount, usePublicStats } from '../api/get-stats.ts'
import { usePrimaryCta, type LandingAuthProps } from './landing-cta.ts'

export function FinalCta(props: Pick<LandingAuthProps, 'isAuthenticated' | 'isLoading'>) {
  const primary = usePrimaryCta(props)
  const users = formatUserCount(usePublicStats().data)
  return (
    <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6" aria-labelledby="final-cta-title">
      <div className="relative overflow-hidden rounded-2xl border border-primary/30 bg-accent/60 px-6 py-14 text-center">
        <div className="mx-auto max-w-2xl space-y-5">
          <h2 id="final-cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Take back your inbox today
          </h2>
          <p className="text-lg text-muted-foreground">
            Free forever, unlimited aliases, and your first one is ready in 30 seconds.
          </p>
          <div className="flex flex-col items-center justify-center gap-4 sm:flex-row">
            <Button size="lg" className="w-full sm:w-auto" onClick={primary.go} disabled={primary.disabled}>
              Get Started Free
              <ArrowRight aria-hidden="true" />
            </Button>
            <Link to="/about" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Learn more about our mission
            </Link>
          </div>
          {users && (
            <p className="font-mono text-sm text-muted-foreground">
              Join <span data-testid="user-count" className="font-semibold text-foreground">{users}</span>{' '}
              keeping their real address private
            </p>
          )}
        </div>
      </div>
    </section>
  )
}
