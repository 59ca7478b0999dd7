import { useNavigate } from 'react-router-dom'
import { ArrowRight, Mail } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { GoogleIcon } from '../../../components/icons/google-icon.tsx'
import { formatAliasCount, formatExactUserCount, usePublicStats } from '../api/get-stats.ts'
import { usePrimaryCta, type LandingAuthProps } from './landing-cta.ts'

/** Only the figures that mean something yet; no line at all while there are none. */
function SocialProof() {
  const { data, isPending, isError } = usePublicStats()
  if (isError) return null
  if (isPending || !data) return <div className="mx-auto h-5 w-72 animate-pulse rounded bg-muted" aria-hidden="true" />
  const figures = [formatExactUserCount(data), formatAliasCount(data)].filter((figure) => figure !== undefined)
  if (figures.length === 0) return null
  return (
    <p className="font-mono text-xs text-muted-foreground sm:text-sm" data-testid="social-proof">
      <span className="mr-2 inline-block size-2 rounded-full bg-primary align-middle" aria-hidden="true" />
      {figures.map((figure, i) => (
        <span key={figure}>
          {i > 0 && ' · '}
          <strong className="text-foreground">{figure}</strong>
        </span>
      ))}
    </p>
  )
}

export function HeroSection(props: LandingAuthProps) {
  const { isAuthenticated, isLoading, googleEnabled, onGoogleSignIn } = props
  const primary = usePrimaryCta(props)
  const navigate = useNavigate()

  function handleGoogle() {
    if (isLoading) return
    if (isAuthenticated) navigate('/dashboard')
    else onGoogleSignIn()
  }

  return (
    <section className="relative overflow-hidden border-b border-border" aria-labelledby="hero-title">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] bg-[size:48px_48px] opacity-50 [mask-image:radial-gradient(ellipse_60%_60%_at_50%_30%,black,transparent)]"
      />
      <div className="relative mx-auto flex max-w-4xl flex-col items-center gap-7 px-4 pb-20 pt-16 text-center sm:px-6 sm:pt-24">
        <p className="rounded-full border border-border bg-card px-3 py-1 font-mono text-xs tracking-wider text-muted-foreground">
          <span className="text-primary">$</span> privacy-first email forwarding
        </p>
        <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
          Your real inbox, <span className="text-primary">behind a veil.</span>
        </h1>
        <div className="max-w-3xl space-y-2 text-lg text-muted-foreground text-pretty sm:text-xl">
          <p>Free, unlimited aliases that forward to the mailbox you already use.</p>
          <p>End-to-end encrypted with age. Zero logs. Set up in 30 seconds.</p>
        </div>
        <div className="flex w-full flex-col items-center justify-center gap-3 sm:w-auto sm:flex-row">
          <Button size="lg" className="w-full sm:w-auto" onClick={primary.go} disabled={primary.disabled}>
            <Mail aria-hidden="true" />
            {primary.label}
            {!isLoading && <ArrowRight aria-hidden="true" />}
          </Button>
          {googleEnabled && (
            <Button size="lg" variant="outline" className="w-full sm:w-auto" onClick={handleGoogle}>
              <GoogleIcon className="size-4" />
              Sign up with Google
            </Button>
          )}
        </div>
        <SocialProof />
      </div>
    </section>
  )
}
